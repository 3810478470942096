#!/usr/bin/env python3
"""Writes Fixtures/xmltv/sample.xml, the offline XMLTV guide that `tvguide build` falls back to.

The guide covers the recorded week, Monday 2026-10-19 06:00 Europe/Madrid (+0200) to Monday
2026-10-26 06:00 (+0100), for the 24 channels of the sample line-up, with contiguous Spanish
programming: news, magazines and quiz shows, daily series with episode numbers (xmltv_ns and
onscreen), films with their real year, director and cast, documentaries, sport, children's
programmes, Catalan on TV3 (lang="ca") and Basque on ETB 1 (lang="eu").

Times are written with their LOCAL offset, as Spanish grabbers write them: +0200 before summer
time ends (Sunday 25 October, 03:00 CEST -> 02:00 CET), +0100 after. On 24h the night of the
change shows both 02:00 +0200 and 02:00 +0100.

Schedules are wall-clock templates per broadcast day (06:00 to 06:00; hours 24-29 run past
midnight), converted with the week's one DST rule, so no time-zone database is needed. The output
is deterministic (no randomness, no clock): run it again and the file does not change. Logo and
poster URLs point at the reserved `.example` domain: the sample ships no images.

    python3 Fixtures/tools/make_xmltv_sample.py [--out Fixtures/xmltv/sample.xml]
"""

import argparse
import calendar
import os
import time
import unicodedata
from xml.sax.saxutils import escape, quoteattr

ICON_BASE = "https://img.tvguide.example/"

# (canonical id, display name, language) - the sample line-up of the brief.
CHANNELS = [
    ("La1.es", "La 1", "es"), ("La2.es", "La 2", "es"), ("Antena3.es", "Antena 3", "es"),
    ("Cuatro.es", "Cuatro", "es"), ("Telecinco.es", "Telecinco", "es"), ("LaSexta.es", "laSexta", "es"),
    ("24h.es", "24h", "es"), ("Clan.es", "Clan", "es"), ("Teledeporte.es", "Teledeporte", "es"),
    ("Neox.es", "Neox", "es"), ("Nova.es", "Nova", "es"), ("Mega.es", "Mega", "es"),
    ("Atreseries.es", "Atreseries", "es"), ("FDF.es", "FDF", "es"), ("Energy.es", "Energy", "es"),
    ("Divinity.es", "Divinity", "es"), ("Boing.es", "Boing", "es"), ("BeMad.es", "Be Mad", "es"),
    ("DMAX.es", "DMAX", "es"), ("ParamountNetwork.es", "Paramount Network", "es"),
    ("Trece.es", "TRECE", "es"), ("DKiss.es", "DKISS", "es"), ("TV3.es", "TV3", "ca"),
    ("ETB1.es", "ETB 1", "eu"),
]

# Broadcast days Monday 19 .. Sunday 25 October 2026; index 5 (Saturday) holds the DST night.
DAYS = [(2026, 10, 19 + i) for i in range(7)]
WEEK_END_LOCAL = ((2026, 10, 25), "30:00")  # Monday 26, 06:00 CET
# Summer time ends at 01:00 UTC on Sunday 25 October 2026.
DST_END_UTC = calendar.timegm((2026, 10, 25, 1, 0, 0))


def local_to_utc(date, hhmm):
    """Unix seconds of a Madrid wall-clock time on a broadcast day. In the repeated hour of the
    25th the first occurrence (CEST) is meant."""
    hours, minutes = (int(part) for part in hhmm.split(":"))
    naive = calendar.timegm((date[0], date[1], date[2], 0, 0, 0)) + hours * 3600 + minutes * 60
    summer = naive - 7200
    return summer if summer < DST_END_UTC else naive - 3600


def xmltv_time(utc):
    """The local time with its offset, `20261025023000 +0200`."""
    offset = 7200 if utc < DST_END_UTC else 3600
    local = time.gmtime(utc + offset)
    return time.strftime("%Y%m%d%H%M%S", local) + (" +0200" if offset == 7200 else " +0100")


def minutes(hhmm, delta):
    h, m = (int(p) for p in hhmm.split(":"))
    total = h * 60 + m + delta
    return "%02d:%02d" % (total // 60, total % 60)


# --- films ---------------------------------------------------------------------------------------
# key: (title, original title or None, year, directors, [(actor, character or None)], countries,
#       original language, minutes, genre, ES rating, stars out of 5, synopsis)

FILMS = {
    "fauno": ("El laberinto del fauno", None, 2006, ["Guillermo del Toro"],
              [("Ivana Baquero", "Ofelia"), ("Sergi López", "Capitán Vidal"), ("Maribel Verdú", "Mercedes"),
               ("Doug Jones", "Fauno"), ("Ariadna Gil", "Carmen")],
              ["ES", "MX"], "es", 118, "Fantástico", "+16", "4.5/5",
              "España, 1944. Ofelia se muda con su madre al molino donde su padrastro, el capitán Vidal, "
              "persigue a los maquis. En un laberinto cercano, un fauno le revela que es una princesa."),
    "apellidos": ("Ocho apellidos vascos", None, 2014, ["Emilio Martínez-Lázaro"],
                  [("Dani Rovira", "Rafa"), ("Clara Lago", "Amaia"), ("Karra Elejalde", "Koldo"),
                   ("Carmen Machi", "Merche")],
                  ["ES"], "es", 98, "Comedia", "+7", "3.5/5",
                  "Rafa, un sevillano que nunca ha salido de Andalucía, sigue a Amaia hasta un pueblo vasco "
                  "y acaba haciéndose pasar por uno más para conquistarla."),
    "maradentro": ("Mar adentro", None, 2004, ["Alejandro Amenábar"],
                   [("Javier Bardem", "Ramón Sampedro"), ("Belén Rueda", "Julia"), ("Lola Dueñas", "Rosa"),
                    ("Mabel Rivera", "Manuela")],
                   ["ES"], "es", 125, "Drama", "+12", "4.5/5",
                   "Ramón Sampedro lleva casi treinta años postrado en una cama tras un accidente y lucha "
                   "por el derecho a decidir sobre su propia vida."),
    "volver": ("Volver", None, 2006, ["Pedro Almodóvar"],
               [("Penélope Cruz", "Raimunda"), ("Carmen Maura", "Irene"), ("Lola Dueñas", "Sole"),
                ("Blanca Portillo", "Agustina"), ("Yohana Cobo", "Paula")],
               ["ES"], "es", 121, "Drama", "+12", "4/5",
               "Raimunda y su hermana Sole, que viven en Madrid, reciben la visita inesperada de su madre, "
               "a la que creían muerta en un incendio en su pueblo de La Mancha."),
    "orfanato": ("El orfanato", None, 2007, ["J. A. Bayona"],
                 [("Belén Rueda", "Laura"), ("Fernando Cayo", "Carlos"), ("Roger Príncep", "Simón"),
                  ("Geraldine Chaplin", "Aurora")],
                 ["ES", "MX"], "es", 105, "Terror", "+16", "4/5",
                 "Laura vuelve con su familia al orfanato donde se crio para abrir una residencia. Allí su "
                 "hijo Simón empieza a jugar con amigos que nadie más ve."),
    "celda": ("Celda 211", None, 2009, ["Daniel Monzón"],
              [("Luis Tosar", "Malamadre"), ("Alberto Ammann", "Juan Oliver"), ("Antonio Resines", "Utrilla"),
               ("Marta Etura", "Elena")],
              ["ES", "FR"], "es", 113, "Thriller", "+18", "4.5/5",
              "El día antes de empezar a trabajar como funcionario de prisiones, Juan visita la cárcel. "
              "Un motín le sorprende dentro y decide hacerse pasar por un preso más."),
    "imposible": ("Lo imposible", None, 2012, ["J. A. Bayona"],
                  [("Naomi Watts", "María"), ("Ewan McGregor", "Henry"), ("Tom Holland", "Lucas")],
                  ["ES"], "en", 114, "Drama", "+12", "4/5",
                  "Una familia de vacaciones en Tailandia queda separada por el tsunami de diciembre de "
                  "2004. Basada en la historia real de María Belón y los suyos."),
    "otros": ("Los otros", None, 2001, ["Alejandro Amenábar"],
              [("Nicole Kidman", "Grace Stewart"), ("Fionnula Flanagan", "Bertha Mills"),
               ("Christopher Eccleston", "Charles Stewart"), ("Alakina Mann", "Anne Stewart"),
               ("James Bentley", "Nicholas Stewart")],
              ["ES", "US", "FR"], "en", 104, "Terror", "+12", "4.5/5",
              "Jersey, 1945. En una mansión aislada por la niebla, Grace cría a sus dos hijos, que no "
              "pueden recibir la luz del sol, mientras espera el regreso de su marido de la guerra."),
    "agora": ("Ágora", None, 2009, ["Alejandro Amenábar"],
              [("Rachel Weisz", "Hipatia"), ("Max Minghella", "Davo"), ("Oscar Isaac", "Orestes"),
               ("Michael Lonsdale", "Teón")],
              ["ES"], "en", 127, "Histórico", "+12", "3.5/5",
              "Alejandría, siglo IV. La astrónoma y filósofa Hipatia defiende el saber de la biblioteca "
              "mientras la ciudad se desgarra entre paganos, cristianos y judíos."),
    "madre": ("Todo sobre mi madre", None, 1999, ["Pedro Almodóvar"],
              [("Cecilia Roth", "Manuela"), ("Marisa Paredes", "Huma Rojo"), ("Penélope Cruz", "Hermana Rosa"),
               ("Antonia San Juan", "Agrado"), ("Candela Peña", "Nina")],
              ["ES", "FR"], "es", 101, "Drama", "+12", "4.5/5",
              "Tras perder a su hijo, Manuela viaja de Madrid a Barcelona en busca del padre del chico, "
              "que nunca supo que tenía un hijo."),
    "campeones": ("Campeones", None, 2018, ["Javier Fesser"],
                  [("Javier Gutiérrez", "Marco"), ("Athenea Mata", "Sonia")],
                  ["ES"], "es", 124, "Comedia", "+7", "4/5",
                  "Un entrenador de baloncesto condenado a servicios sociales tiene que entrenar a un "
                  "equipo de jugadores con discapacidad intelectual."),
    "islaminima": ("La isla mínima", None, 2014, ["Alberto Rodríguez"],
                   [("Raúl Arévalo", "Pedro"), ("Javier Gutiérrez", "Juan")],
                   ["ES"], "es", 105, "Thriller", "+16", "4/5",
                   "1980. Dos policías de ideas opuestas investigan en las marismas del Guadalquivir la "
                   "desaparición de dos adolescentes."),
    "lunes": ("Los lunes al sol", None, 2002, ["Fernando León de Aranoa"],
              [("Javier Bardem", "Santa"), ("Luis Tosar", "José"), ("José Ángel Egido", "Lino")],
              ["ES", "FR", "IT"], "es", 113, "Drama", "+12", "4/5",
              "En una ciudad del norte, un grupo de amigos despedidos del astillero pasan los días entre "
              "el bar, el ferry y la búsqueda de trabajo."),
    "tesis": ("Tesis", None, 1996, ["Alejandro Amenábar"],
              [("Ana Torrent", "Ángela"), ("Fele Martínez", "Chema"), ("Eduardo Noriega", "Bosco")],
              ["ES"], "es", 125, "Thriller", "+18", "4/5",
              "Una estudiante que prepara una tesis sobre la violencia audiovisual encuentra una cinta en "
              "la que una chica es torturada y asesinada."),
    "secreto": ("El secreto de sus ojos", None, 2009, ["Juan José Campanella"],
                [("Ricardo Darín", "Benjamín Espósito"), ("Soledad Villamil", "Irene Menéndez Hastings"),
                 ("Guillermo Francella", "Pablo Sandoval")],
                ["AR", "ES"], "es", 129, "Thriller", "+16", "4.5/5",
                "Un funcionario judicial jubilado escribe una novela sobre un asesinato de 1974 que nunca "
                "pudo olvidar, y sobre la mujer a la que nunca se declaró."),
    "atraco": ("Atraco a las tres", None, 1962, ["José María Forqué"],
               [("José Luis López Vázquez", "Fernando Galindo"), ("Gracita Morales", None),
                ("Cassen", None), ("Manuel Alexandre", None)],
               ["ES"], "es", 90, "Comedia", "TP", "4/5",
               "Los empleados de una sucursal bancaria de Madrid, hartos de su sueldo, planean atracar "
               "su propio banco."),
    "verdugo": ("El verdugo", None, 1963, ["Luis García Berlanga"],
                [("Nino Manfredi", "José Luis"), ("José Isbert", "Amadeo"), ("Emma Penella", "Carmen")],
                ["ES", "IT"], "es", 87, "Comedia", "+12", "4.5/5",
                "José Luis, empleado de una funeraria, se casa con la hija del verdugo y acaba heredando "
                "el oficio para conservar el piso."),
    "marshall": ("Bienvenido, Mister Marshall", None, 1953, ["Luis García Berlanga"],
                 [("José Isbert", "Don Pablo, el alcalde"), ("Lolita Sevilla", "Carmen Vargas"),
                  ("Manolo Morán", "Manolo")],
                 ["ES"], "es", 78, "Comedia", "TP", "4.5/5",
                 "Villar del Río se disfraza de pueblo andaluz para recibir a los americanos del Plan "
                 "Marshall, que prometen traer de todo."),
    "placido": ("Plácido", None, 1961, ["Luis García Berlanga"],
                [("Cassen", "Plácido"), ("José Luis López Vázquez", "Gabino Quintanilla")],
                ["ES"], "es", 85, "Comedia", "+12", "4.5/5",
                "Nochebuena en una ciudad de provincias: la campaña «Siente a un pobre a su mesa» y un "
                "motocarro que hay que pagar antes de que cierre el banco."),
    "shawshank": ("Cadena perpetua", "The Shawshank Redemption", 1994, ["Frank Darabont"],
                  [("Tim Robbins", "Andy Dufresne"), ("Morgan Freeman", "Ellis 'Red' Redding")],
                  ["US"], "en", 142, "Drama", "+16", "5/5",
                  "Condenado por el asesinato de su esposa, el banquero Andy Dufresne entra en la prisión "
                  "de Shawshank, donde traba amistad con Red."),
    "padrino": ("El padrino", "The Godfather", 1972, ["Francis Ford Coppola"],
                [("Marlon Brando", "Vito Corleone"), ("Al Pacino", "Michael Corleone"), ("James Caan", "Sonny Corleone")],
                ["US"], "en", 175, "Drama", "+16", "5/5",
                "Nueva York, 1945. El patriarca de la familia Corleone se niega a entrar en el negocio de "
                "la droga y su hijo menor, Michael, acaba al frente del clan."),
    "futuro": ("Regreso al futuro", "Back to the Future", 1985, ["Robert Zemeckis"],
               [("Michael J. Fox", "Marty McFly"), ("Christopher Lloyd", "Doc Emmett Brown"),
                ("Lea Thompson", "Lorraine Baines")],
               ["US"], "en", 116, "Ciencia ficción", "TP", "4.5/5",
               "Marty McFly viaja por accidente a 1955 en el DeLorean del excéntrico Doc Brown y pone en "
               "peligro que sus padres lleguen a enamorarse."),
    "titanic": ("Titanic", None, 1997, ["James Cameron"],
                [("Leonardo DiCaprio", "Jack Dawson"), ("Kate Winslet", "Rose DeWitt Bukater")],
                ["US"], "en", 194, "Drama", "+12", "4/5",
                "A bordo del Titanic, una joven de clase alta prometida a un millonario se enamora de un "
                "artista sin dinero que ganó su billete en una partida de cartas."),
    "gladiator": ("Gladiator", None, 2000, ["Ridley Scott"],
                  [("Russell Crowe", "Máximo"), ("Joaquin Phoenix", "Cómodo"), ("Connie Nielsen", "Lucila")],
                  ["US", "GB"], "en", 155, "Aventuras", "+16", "4.5/5",
                  "Traicionado por el emperador Cómodo, el general Máximo es vendido como esclavo y "
                  "vuelve a Roma convertido en gladiador."),
    "jurasico": ("Parque Jurásico", "Jurassic Park", 1993, ["Steven Spielberg"],
                 [("Sam Neill", "Alan Grant"), ("Laura Dern", "Ellie Sattler"), ("Jeff Goldblum", "Ian Malcolm")],
                 ["US"], "en", 127, "Aventuras", "+7", "4.5/5",
                 "Un millonario invita a unos científicos a visitar su parque de atracciones en una isla, "
                 "poblado por dinosaurios clonados."),
    "origen": ("Origen", "Inception", 2010, ["Christopher Nolan"],
               [("Leonardo DiCaprio", "Cobb"), ("Joseph Gordon-Levitt", "Arthur"), ("Elliot Page", "Ariadne")],
               ["US", "GB"], "en", 148, "Ciencia ficción", "+12", "4.5/5",
               "Cobb roba secretos del subconsciente mientras la gente sueña. Su último encargo es el "
               "contrario: implantar una idea."),
    "gump": ("Forrest Gump", None, 1994, ["Robert Zemeckis"],
             [("Tom Hanks", "Forrest Gump"), ("Robin Wright", "Jenny Curran"), ("Gary Sinise", "Teniente Dan Taylor")],
             ["US"], "en", 142, "Drama", "+7", "4.5/5",
             "Sentado en un banco de Savannah, Forrest Gump cuenta su vida: Vietnam, el ping-pong, las "
             "gambas y su amor por Jenny."),
    "topgun": ("Top Gun", None, 1986, ["Tony Scott"],
               [("Tom Cruise", "Pete 'Maverick' Mitchell"), ("Kelly McGillis", "Charlie Blackwood"),
                ("Val Kilmer", "Tom 'Iceman' Kazansky")],
               ["US"], "en", 110, "Acción", "+7", "3.5/5",
               "Un piloto de caza tan brillante como imprudente ingresa en la escuela de élite de la "
               "Marina de los Estados Unidos."),
    "ryan": ("Salvar al soldado Ryan", "Saving Private Ryan", 1998, ["Steven Spielberg"],
             [("Tom Hanks", "Capitán Miller"), ("Matt Damon", "Soldado Ryan")],
             ["US"], "en", 169, "Bélico", "+18", "4.5/5",
             "Tras el desembarco de Normandía, un capitán y sus hombres cruzan las líneas enemigas para "
             "encontrar a un soldado cuyos tres hermanos han muerto en combate."),
    "corderos": ("El silencio de los corderos", "The Silence of the Lambs", 1991, ["Jonathan Demme"],
                 [("Jodie Foster", "Clarice Starling"), ("Anthony Hopkins", "Hannibal Lecter")],
                 ["US"], "en", 118, "Thriller", "+18", "4.5/5",
                 "Una agente en prácticas del FBI pide ayuda a un psiquiatra caníbal encarcelado para "
                 "atrapar a un asesino en serie."),
    "lalaland": ("La La Land", None, 2016, ["Damien Chazelle"],
                 [("Ryan Gosling", "Sebastian"), ("Emma Stone", "Mia")],
                 ["US"], "en", 128, "Musical", "TP", "4/5",
                 "En Los Ángeles, una aspirante a actriz y un pianista de jazz se enamoran mientras "
                 "persiguen sus sueños."),
    "madmax": ("Mad Max: Furia en la carretera", "Mad Max: Fury Road", 2015, ["George Miller"],
               [("Tom Hardy", "Max Rockatansky"), ("Charlize Theron", "Furiosa")],
               ["AU", "US"], "en", 120, "Acción", "+16", "4.5/5",
               "En un desierto postapocalíptico, Furiosa huye del tirano Immortan Joe con sus esposas, "
               "y Max se ve arrastrado a la persecución."),
    "tiburon": ("Tiburón", "Jaws", 1975, ["Steven Spielberg"],
                [("Roy Scheider", "Jefe Martin Brody"), ("Robert Shaw", "Quint"), ("Richard Dreyfuss", "Matt Hooper")],
                ["US"], "en", 124, "Aventuras", "+12", "4.5/5",
                "Un tiburón blanco aterroriza las playas de Amity en pleno verano y el jefe de policía sale "
                "a cazarlo con un biólogo y un viejo pescador."),
    "alien": ("Alien, el octavo pasajero", "Alien", 1979, ["Ridley Scott"],
              [("Sigourney Weaver", "Ripley"), ("Tom Skerritt", "Dallas"), ("John Hurt", "Kane")],
              ["US", "GB"], "en", 117, "Ciencia ficción", "+16", "4.5/5",
              "La tripulación del carguero espacial Nostromo acude a una señal de socorro y se lleva a "
              "bordo una criatura letal."),
    "matrix": ("Matrix", "The Matrix", 1999, ["Lana Wachowski", "Lilly Wachowski"],
               [("Keanu Reeves", "Neo"), ("Laurence Fishburne", "Morfeo"), ("Carrie-Anne Moss", "Trinity")],
               ["US", "AU"], "en", 136, "Ciencia ficción", "+16", "4.5/5",
               "Un programador descubre que el mundo en que vive es una simulación y que él puede ser "
               "quien libere a la humanidad."),
    "riobravo": ("Río Bravo", "Rio Bravo", 1959, ["Howard Hawks"],
                 [("John Wayne", "John T. Chance"), ("Dean Martin", "Dude"), ("Ricky Nelson", "Colorado")],
                 ["US"], "en", 141, "Western", "+7", "4.5/5",
                 "Un sheriff, un ayudante borracho y un viejo cojo retienen en la cárcel a un asesino "
                 "mientras su poderoso hermano intenta liberarlo."),
    "centauros": ("Centauros del desierto", "The Searchers", 1956, ["John Ford"],
                  [("John Wayne", "Ethan Edwards"), ("Jeffrey Hunter", "Martin Pawley"), ("Natalie Wood", "Debbie Edwards")],
                  ["US"], "en", 119, "Western", "+7", "5/5",
                  "Un veterano de la guerra civil pasa años buscando a su sobrina, raptada por los "
                  "comanches tras el asalto a la granja familiar."),
    "valance": ("El hombre que mató a Liberty Valance", "The Man Who Shot Liberty Valance", 1962, ["John Ford"],
                [("James Stewart", "Ransom Stoddard"), ("John Wayne", "Tom Doniphon"), ("Lee Marvin", "Liberty Valance")],
                ["US"], "en", 123, "Western", "+7", "5/5",
                "Un senador vuelve a Shinbone para el entierro de un viejo amigo y cuenta a la prensa la "
                "verdad sobre el hombre que lo hizo famoso."),
    "highnoon": ("Solo ante el peligro", "High Noon", 1952, ["Fred Zinnemann"],
                 [("Gary Cooper", "Will Kane"), ("Grace Kelly", "Amy Fowler Kane")],
                 ["US"], "en", 85, "Western", "TP", "4.5/5",
                 "El día de su boda, el sheriff Kane sabe que el hombre al que encarceló llega en el tren "
                 "del mediodía, y nadie en el pueblo quiere ayudarle."),
    "casablanca": ("Casablanca", None, 1942, ["Michael Curtiz"],
                   [("Humphrey Bogart", "Rick Blaine"), ("Ingrid Bergman", "Ilsa Lund"), ("Paul Henreid", "Victor Laszlo")],
                   ["US"], "en", 102, "Drama", "TP", "5/5",
                   "En la Casablanca de 1941, el dueño de un café reencuentra a la mujer que le abandonó en "
                   "París, que llega con su marido, un líder de la resistencia."),
    "tiffany": ("Desayuno con diamantes", "Breakfast at Tiffany's", 1961, ["Blake Edwards"],
                [("Audrey Hepburn", "Holly Golightly"), ("George Peppard", "Paul Varjak")],
                ["US"], "en", 115, "Comedia", "TP", "4/5",
                "Un escritor se muda a un edificio de Manhattan y queda fascinado por su vecina, una joven "
                "que sueña con desayunar frente a Tiffany's."),
    "pretty": ("Pretty Woman", None, 1990, ["Garry Marshall"],
               [("Julia Roberts", "Vivian Ward"), ("Richard Gere", "Edward Lewis")],
               ["US"], "en", 119, "Comedia", "+12", "3.5/5",
               "Un millonario de paso por Los Ángeles contrata a una joven para que le acompañe una semana "
               "a sus compromisos sociales."),
    "mision": ("Misión imposible", "Mission: Impossible", 1996, ["Brian De Palma"],
               [("Tom Cruise", "Ethan Hunt"), ("Jon Voight", "Jim Phelps"), ("Emmanuelle Béart", "Claire Phelps")],
               ["US"], "en", 110, "Acción", "+12", "3.5/5",
               "Acusado de traición tras una operación fallida en Praga, el agente Ethan Hunt debe "
               "limpiar su nombre y encontrar al verdadero topo."),
    "indiana": ("Indiana Jones y la última cruzada", "Indiana Jones and the Last Crusade", 1989, ["Steven Spielberg"],
                [("Harrison Ford", "Indiana Jones"), ("Sean Connery", "Henry Jones"), ("Alison Doody", "Elsa Schneider")],
                ["US"], "en", 127, "Aventuras", "+7", "4.5/5",
                "Indiana Jones busca a su padre, desaparecido mientras seguía la pista del Santo Grial, "
                "antes de que lo encuentren los nazis."),
    "shrek": ("Shrek", None, 2001, ["Andrew Adamson", "Vicky Jenson"],
              [("Mike Myers", "Shrek"), ("Eddie Murphy", "Asno"), ("Cameron Diaz", "Fiona")],
              ["US"], "en", 90, "Animación", "TP", "4/5",
              "Un ogro que solo quiere vivir tranquilo en su ciénaga acepta rescatar a una princesa para "
              "que le devuelvan su hogar."),
    "nemo": ("Buscando a Nemo", "Finding Nemo", 2003, ["Andrew Stanton"],
             [("Albert Brooks", "Marlin"), ("Ellen DeGeneres", "Dory")],
             ["US"], "en", 100, "Animación", "TP", "4.5/5",
             "Un pez payaso cruza el océano, con la ayuda de una olvidadiza pez cirujano, para rescatar a "
             "su hijo, capturado por un buceador."),
    "delreves": ("Del revés", "Inside Out", 2015, ["Pete Docter"],
                 [("Amy Poehler", "Alegría"), ("Phyllis Smith", "Tristeza")],
                 ["US"], "en", 95, "Animación", "TP", "4.5/5",
                 "Alegría, Tristeza, Miedo, Ira y Asco dirigen la mente de Riley, una niña de once años que "
                 "se muda con sus padres a San Francisco."),
    "tadeo": ("Las aventuras de Tadeo Jones", None, 2012, ["Enrique Gato"], [],
              ["ES"], "es", 92, "Animación", "TP", "3.5/5",
              "Un albañil de Chicago que sueña con ser arqueólogo viaja por error a Perú en busca de una "
              "ciudad perdida de los incas."),
    # Catalan (TV3) and Basque (ETB 1) titles, broadcast in those languages.
    "panegre": ("Pa negre", None, 2010, ["Agustí Villaronga"],
                [("Francesc Colomer", "Andreu"), ("Nora Navas", "Florència"), ("Roger Casamajor", "Farriol")],
                ["ES"], "ca", 108, "Drama", "+16", "4/5",
                "Als anys de la postguerra, a la Catalunya rural, l'Andreu troba dos cadàvers al bosc i "
                "descobreix a poc a poc els secrets dels adults."),
    "estiu": ("Estiu 1993", None, 2017, ["Carla Simón"],
              [("Laia Artigas", "Frida"), ("Paula Robles", "Anna"), ("Bruna Cusí", "Marga"),
               ("David Verdaguer", "Esteve")],
              ["ES"], "ca", 97, "Drama", "TP", "4/5",
              "Després de la mort de la seva mare, la Frida, de sis anys, se'n va a viure amb els seus "
              "oncles i la seva cosina petita a l'Empordà."),
    "alcarras": ("Alcarràs", None, 2022, ["Carla Simón"],
                 [("Jordi Pujol Dolcet", "Quimet"), ("Anna Otín", "Dolors")],
                 ["ES", "IT"], "ca", 120, "Drama", "TP", "4/5",
                 "La família Solé cull préssecs a Alcarràs des de fa generacions. Aquest estiu pot ser "
                 "l'últim: el propietari vol arrencar els arbres per posar-hi plaques solars."),
    "handia": ("Handia", None, 2017, ["Aitor Arregi", "Jon Garaño"],
               [("Eneko Sagardoy", "Joaquín"), ("Joseba Usabiaga", "Martín")],
               ["ES"], "eu", 114, "Drama", "+12", "4/5",
               "Karlistadako gerratik itzultzean, Martinek ikusten du bere anaia Joaquin ez dela hazteari "
               "utzi. Europan zehar erakustea erabakiko dute."),
    "loreak": ("Loreak", None, 2014, ["Jon Garaño", "Jose Mari Goenaga"],
               [("Nagore Aranburu", "Ane"), ("Itziar Ituño", "Lourdes"), ("Josean Bengoetxea", "Beñat")],
               ["ES"], "eu", 99, "Drama", "+12", "3.5/5",
               "Astero, lore sorta bat iristen zaio Aneri etxera, nork bidaltzen dion jakin gabe."),
}

BLACK_AND_WHITE = {"casablanca", "highnoon", "marshall", "placido", "verdugo", "atraco", "valance"}

# Films made in the last years are a channel's premiere ("estreno") on their first airing.
PREMIERES = {"alcarras", "campeones", "lalaland", "madmax"}

# Category words in the channel's language for each kind of programme.
WORDS = {
    "es": {"movie": "Cine", "series": "Serie", "news": "Informativos", "sports": "Deportes",
           "kids": "Infantil", "documentary": "Documental"},
    "ca": {"movie": "Pel·lícula", "series": "Sèrie", "news": "Notícies", "sports": "Esports",
           "kids": "Infantil", "documentary": "Documental"},
    "eu": {"movie": "Filma", "series": "Telesaila", "news": "Albisteak", "sports": "Kirolak",
           "kids": "Haurrentzat", "documentary": "Dokumentala"},
}

GENRES_CA = {"Drama": "Drama", "Comedia": "Comèdia", "Ciencia ficción": "Ciència-ficció"}
GENRES_EU = {"Drama": "Drama"}


# --- programme makers ----------------------------------------------------------------------------
# Each returns a dict; `write_programme` turns it into XML. Keys: title, lang, sub_title, desc,
# categories [(text, lang)], credits [(role, name, character)], date, country, orig_lang, length,
# icon, url, episode (xmltv_ns, onscreen), video, audio, premiere, new, subtitles, rating, stars,
# film (the FILMS key, for previously-shown).

def show(title, category, desc=None, lang="es", presenters=(), subtitles=False, keywords=()):
    return {"title": title, "lang": lang, "desc": desc, "categories": [(category, lang)],
            "credits": [("presenter", name, None) for name in presenters], "subtitles": subtitles,
            "keywords": [(word, lang) for word in keywords]}


def news(title, lang="es", presenters=(), desc=None, subtitles=False):
    return {"title": title, "lang": lang, "desc": desc, "categories": [(WORDS[lang]["news"], lang)],
            "credits": [("presenter", name, None) for name in presenters], "subtitles": subtitles}


def documentary(title, desc, lang="es", extra=None, subtitles=False):
    categories = [(WORDS[lang]["documentary"], lang)] + ([(extra, lang)] if extra else [])
    return {"title": title, "lang": lang, "desc": desc, "categories": categories, "subtitles": subtitles}


def sport(title, desc=None, extra=None, commentators=(), lang="es"):
    categories = [(WORDS[lang]["sports"], lang)] + ([(extra, lang)] if extra else [])
    return {"title": title, "lang": lang, "desc": desc, "categories": categories,
            "credits": [("commentator", name, None) for name in commentators],
            "video": {"aspect": "16:9", "quality": "HDTV"}}


def film(key, lang=None, subtitles=False, title=None):
    (es_title, original, year, directors, cast, countries, orig_lang, runtime, genre, rating,
     stars, synopsis) = FILMS[key]
    lang = lang or ("es" if orig_lang not in ("ca", "eu") else orig_lang)
    genre_text = {"ca": GENRES_CA, "eu": GENRES_EU}.get(lang, {}).get(genre, genre) if lang != "es" else genre
    item = {
        "title": title or es_title, "lang": lang,
        "other_titles": [(original, "en")] if original else [],
        "desc": synopsis if lang == "es" or lang == orig_lang else None,
        "categories": [(WORDS[lang]["movie"], lang), (genre_text, lang)],
        "credits": [("director", name, None) for name in directors]
                   + [("actor", name, character) for name, character in cast],
        "date": str(year), "orig_lang": orig_lang, "countries": countries, "length": runtime,
        "icon": ICON_BASE + "films/%s-%d.jpg" % (slug(es_title), year),
        "video": {"aspect": "16:9", "quality": "HDTV", "colour": key not in BLACK_AND_WHITE},
        "audio": {"stereo": "stereo" if year < 1990 else "dolby digital"},
        "rating": rating, "stars": stars, "film": key, "subtitles": subtitles,
    }
    return item


def slug(text):
    """`Ágora` -> `agora`, `Mad Max: Furia en la carretera` -> `mad-max-furia-en-la-carretera`."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return "-".join("".join(c if c.isalnum() else " " for c in plain).split())


class Series:
    """A series whose episodes advance one airing at a time, across the whole week."""

    def __init__(self, title, categories, seasons, start, lang="es", onscreen="T{s} E{e}",
                 sub_title=None, desc=None, cast=(), new=False, episode_only=False, subtitles=False):
        self.title, self.categories, self.seasons = title, categories, seasons
        self.season, self.episode = start
        self.lang, self.onscreen, self.sub_title, self.desc = lang, onscreen, sub_title, desc
        self.cast, self.new, self.episode_only, self.subtitles = cast, new, episode_only, subtitles

    def __call__(self):
        season, episode = self.season, self.episode
        count = self.seasons.get(season)
        if self.episode_only:
            xmltv_ns = ". %d ." % (episode - 1)
        else:
            xmltv_ns = "%d . %d%s . " % (season - 1, episode - 1, "/%d" % count if count else "")
        item = {
            "title": self.title, "lang": self.lang, "desc": self.desc,
            "sub_title": self.sub_title.format(s=season, e=episode) if self.sub_title else None,
            "categories": [(c, self.lang) for c in self.categories],
            "credits": [("actor", name, character) for name, character in self.cast],
            "episode": (xmltv_ns, self.onscreen.format(s=season, e=episode)),
            "new": self.new, "subtitles": self.subtitles,
        }
        if count and episode >= count and season + 1 in self.seasons:
            self.season, self.episode = season + 1, 1
        elif count and episode >= count:
            self.episode = 1
        else:
            self.episode = episode + 1
        return item


class Rotation:
    """Cycles through makers or films so that a slot shows something different every day."""

    def __init__(self, *makers):
        self.makers, self.index = makers, 0

    def __call__(self):
        maker = self.makers[self.index % len(self.makers)]
        self.index += 1
        return maker() if callable(maker) else maker


def films(*keys, **kwargs):
    return Rotation(*[(lambda key=key: film(key, **kwargs)) for key in keys])


def fixed(maker, *args, **kwargs):
    return lambda: maker(*args, **kwargs)


def block(start, end, step, maker):
    """Back-to-back airings of `maker` every `step` minutes from `start` to `end`."""
    slots, at = [], start
    while at < end:
        slots.append((at, maker))
        at = minutes(at, step)
    return slots


# --- the series ----------------------------------------------------------------------------------

CUENTAME = Series("Cuéntame cómo pasó", ["Serie", "Drama"], {19: 13, 20: 13}, (19, 4),
                  onscreen="T{s} Capítulo {e}",
                  desc="La familia Alcántara vive los cambios de la España de finales de los años ochenta.",
                  cast=[("Imanol Arias", "Antonio Alcántara"), ("Ana Duato", "Mercedes Fernández"),
                        ("Ricardo Gómez", "Carlos Alcántara")], subtitles=True)
PROMESA = Series("La Promesa", ["Serie", "Drama"], {}, (1, 712), onscreen="Capítulo {e}", sub_title="Capítulo {e}",
                 desc="Jana entra a servir en el palacio de los marqueses de Luján con un propósito oculto.",
                 new=True, episode_only=True, subtitles=True)
VALLE = Series("Valle salvaje", ["Serie", "Drama"], {}, (1, 245), onscreen="Capítulo {e}", sub_title="Capítulo {e}",
               desc="Adriana llega al Valle Salvaje, en el siglo XVIII, para hacerse cargo de sus hermanas.",
               new=True, episode_only=True, subtitles=True)
SUENOS = Series("Sueños de libertad", ["Serie", "Drama"], {}, (1, 418), onscreen="Capítulo {e}",
                sub_title="Capítulo {e}", new=True, episode_only=True,
                desc="Begoña busca su independencia en la Toledo de finales de los años cincuenta.")
AIDA = Series("Aída", ["Serie", "Comedia"], {5: 17, 6: 15, 7: 16}, (5, 9),
              cast=[("Carmen Machi", "Aída García"), ("Paco León", "Luisma García"), ("Pepe Viyuela", "Chema"),
                    ("Mariano Peña", "Mauricio Hidalgo")],
              desc="Las desventuras de Aída, madre soltera, su familia y sus vecinos del barrio de Esperanza Sur.")
LQSA = Series("La que se avecina", ["Serie", "Comedia"], {7: 14, 8: 13, 9: 13}, (7, 6),
              cast=[("José Luis Gil", "Enrique Pastor"), ("Jordi Sánchez", "Antonio Recio"),
                    ("Nathalie Seseña", "Berta Escobar")],
              desc="Los vecinos de Mirador de Montepinar conviven entre juntas de vecinos y pequeñas guerras.")
SERRANO = Series("Los Serrano", ["Serie", "Comedia"], {3: 14, 4: 17}, (3, 10),
                 desc="Diego, viudo con tres hijos, se casa con su novia del instituto, madre de dos chicas.")
SIMPSON = Series("Los Simpson", ["Serie", "Animación"], {11: 22, 12: 21, 13: 22}, (11, 5),
                 desc="Homer, Marge, Bart, Lisa y Maggie, la familia más famosa de Springfield.")
BIGBANG = Series("El joven Sheldon", ["Serie", "Comedia"], {3: 21, 4: 18}, (3, 7),
                 desc="Sheldon Cooper, con nueve años y un coeficiente altísimo, crece en el este de Texas.")
MODERN = Series("Modern Family", ["Serie", "Comedia"], {4: 24, 5: 24}, (4, 12),
                desc="Tres familias emparentadas muestran la vida familiar de hoy en un falso documental.")
HOMBRES = Series("Los hombres de Paco", ["Serie", "Comedia"], {2: 14, 3: 17}, (2, 3),
                 cast=[("Paco Tous", "Paco Miranda"), ("Pepón Nieto", "Mariano Moreno")],
                 desc="Un comisario y sus agentes, más torpes que eficaces, resuelven casos en una comisaría de Madrid.")
INTERNADO = Series("El internado", ["Serie", "Misterio"], {2: 8, 3: 8}, (2, 2),
                   desc="En el internado de la Laguna Negra, los alumnos descubren los secretos del bosque.")
AQUINOHAY = Series("Aquí no hay quien viva", ["Serie", "Comedia"], {2: 18, 3: 15}, (2, 11),
                   desc="Los vecinos de Desengaño 21 se organizan, se espían y se pelean en cada junta.")
VISAVIS = Series("Vis a vis", ["Serie", "Drama"], {1: 11, 2: 11}, (1, 6),
                 desc="Macarena Ferreiro entra en la cárcel de Cruz del Sur acusada de un delito económico.")
MENTES = Series("Mentes criminales", ["Serie", "Policiaca"], {8: 24, 9: 24}, (8, 15),
                desc="La Unidad de Análisis de Conducta del FBI traza el perfil de los peores criminales.")
CSI = Series("CSI: Las Vegas", ["Serie", "Policiaca"], {9: 24, 10: 23}, (9, 19),
             desc="Los investigadores del laboratorio criminalístico de Las Vegas resuelven casos con pruebas.")
NCIS = Series("NCIS", ["Serie", "Policiaca"], {12: 24, 13: 24}, (12, 20),
              desc="El equipo del agente Gibbs investiga delitos relacionados con la Marina y los marines.")
COBRA = Series("Alerta Cobra", ["Serie", "Acción"], {20: 16, 21: 10}, (20, 11),
               desc="La unidad de autopistas de la policía alemana persigue delincuentes a toda velocidad.")
YELLOW = Series("Yellowstone", ["Serie", "Drama"], {2: 10, 3: 10}, (2, 4),
                desc="John Dutton defiende el rancho más grande de Montana frente a promotores y vecinos.")
HERMANOS = Series("Hermanos", ["Serie", "Drama"], {1: 120}, (1, 58), onscreen="Capítulo {e}",
                  desc="Cuatro hermanos se quedan solos tras un accidente y luchan por seguir juntos.")
TIERRA = Series("Tierra amarga", ["Serie", "Drama"], {3: 90}, (3, 41), onscreen="T{s} Capítulo {e}",
                desc="En la Çukurova de los años setenta, una pareja huye y acaba trabajando en una finca.")
PECADO = Series("Pecado original", ["Serie", "Drama"], {1: 160}, (1, 97), onscreen="Capítulo {e}",
                desc="Una joven que ha crecido en un orfanato se enamora del hijo de una familia rica.")
PEPPA = Series("Peppa Pig", ["Infantil", "Animación"], {7: 26}, (7, 3), desc=None)
PATRULLA = Series("La patrulla canina", ["Infantil", "Animación"], {8: 26}, (8, 11))
BLUEY = Series("Bluey", ["Infantil", "Animación"], {2: 52}, (2, 17))
POCOYO = Series("Pocoyó", ["Infantil", "Animación"], {4: 52}, (4, 8))
MASHA = Series("Masha y el oso", ["Infantil", "Animación"], {5: 26}, (5, 2))
ESPONJA = Series("Bob Esponja", ["Infantil", "Animación"], {12: 26}, (12, 5))
TITANS = Series("Teen Titans Go!", ["Infantil", "Animación"], {7: 52}, (7, 21))
GUMBALL = Series("El asombroso mundo de Gumball", ["Infantil", "Animación"], {5: 40}, (5, 12))
DORAEMON = Series("Doraemon", ["Infantil", "Animación"], {1: 300}, (1, 188), onscreen="Episodio {e}")
POKEMON = Series("Pokémon: Horizontes", ["Infantil", "Animación"], {1: 45}, (1, 23))
TOMJERRY = Series("Tom y Jerry", ["Infantil", "Animación"], {1: 52}, (1, 30))
COMSIFOS = Series("Com si fos ahir", ["Sèrie", "Drama"], {9: 200}, (9, 131), lang="ca", onscreen="Capítol {e}",
                  desc="Un grup d'amics de tota la vida s'enfronta als reptes dels cinquanta anys.", new=True)
GOAZEN = Series("Go!azen", ["Telesaila", "Musikala"], {11: 13}, (11, 5), lang="eu", onscreen="{s}. denboraldia, {e}. atala",
                desc="Udaleku batean elkartutako gazteen abenturak, abestiak eta maitasunak.")
FORJADO = Series("Forjado a fuego", ["Concurso"], {7: 14}, (7, 3),
                 desc="Cuatro herreros forjan un arma legendaria y el jurado la pone a prueba.")
FIEBRE = Series("La fiebre del oro", ["Documental", "Aventura"], {12: 20}, (12, 8),
                desc="Equipos de mineros arriesgan todo en Alaska y el Yukón durante la temporada de extracción.")
DESNUDO = Series("Supervivencia al desnudo", ["Documental", "Aventura"], {14: 16}, (14, 2),
                 desc="Dos desconocidos sobreviven 21 días sin ropa ni comida en un entorno extremo.")
FRONTERAS = Series("Control de fronteras: España", ["Documental"], {6: 12}, (6, 4),
                   desc="Agentes de aduanas y de la Guardia Civil vigilan puertos y aeropuertos españoles.")
JOYAS = Series("Joyas sobre ruedas", ["Documental", "Motor"], {16: 13}, (16, 6),
               desc="Mike Brewer compra coches clásicos y Ant Anstead los restaura para venderlos con beneficio.")
ALASKA = Series("Alaska: la última frontera", ["Documental"], {9: 14}, (9, 3),
                desc="La familia Kilcher vive de lo que caza, pesca y cultiva en la península de Kenai.")
KILOS = Series("Mi vida con 300 kilos", ["Reality"], {9: 16}, (9, 5),
               desc="Personas con obesidad mórbida intentan cambiar su vida con la ayuda del doctor Nowzaradan.")
PIMPLE = Series("Dr. Pimple Popper", ["Reality"], {6: 12}, (6, 7),
                desc="La dermatóloga Sandra Lee trata a pacientes con problemas de piel poco comunes.")
CAZADORES = Series("Cazadores de casas", ["Reality", "Hogar"], {20: 20}, (20, 3),
                   desc="Compradores de todo el mundo visitan tres casas y se quedan con una.")


# --- channel schedules ---------------------------------------------------------------------------
# A schedule maps a weekday (0 = Monday) to [(local "HH:MM", maker)] for that broadcast day.

def weekdays_weekend(weekday_slots, saturday_slots, sunday_slots=None, friday_slots=None):
    def plan(weekday):
        if weekday == 5:
            return saturday_slots
        if weekday == 6:
            return sunday_slots or saturday_slots
        if weekday == 4 and friday_slots:
            return friday_slots
        return weekday_slots
    return plan


TELEDIARIO = fixed(news, "Telediario 1", presenters=["Marta Carazo"], subtitles=True)
TELEDIARIO2 = fixed(news, "Telediario 2", presenters=["Pepa Bueno"], subtitles=True)
TD_FINDE = fixed(news, "Telediario fin de semana", presenters=["Lourdes Maldonado"], subtitles=True)
NOTICIAS24 = fixed(news, "Noticias 24 horas")
TIEMPO = fixed(show, "El tiempo", "Información meteorológica", subtitles=True)
TELETIENDA = fixed(show, "Teletienda", "Teletienda")

LA1 = weekdays_weekend(
    [("06:00", NOTICIAS24), ("06:30", fixed(news, "Telediario matinal", subtitles=True)),
     ("08:00", fixed(show, "La hora de La 1", "Magacín", "Actualidad, entrevistas y debate.", presenters=["Silvia Intxaurrondo"])),
     ("10:30", fixed(show, "Mañaneros 360", "Magacín", "Actualidad, sociedad y corazón en directo.", presenters=["Javier Ruiz"])),
     ("14:00", fixed(news, "Informativo territorial")), ("14:30", fixed(show, "Corazón", "Corazón", "Crónica social.")),
     ("15:00", TELEDIARIO), ("15:50", TIEMPO), ("16:00", VALLE), ("17:00", PROMESA),
     ("18:00", fixed(show, "El cazador", "Concurso", "Cuatro concursantes se enfrentan a los cazadores.", presenters=["Ion Aramendi"])),
     ("19:30", fixed(show, "Aquí la Tierra", "Divulgativo", "El tiempo, el campo y la naturaleza.", presenters=["Jacob Petrus"])),
     ("21:00", TELEDIARIO2), ("21:55", TIEMPO),
     ("22:05", fixed(show, "La Revuelta", "Entretenimiento", "Humor, música y entrevistas desde el Teatro Príncipe Gran Vía.",
                     presenters=["David Broncano"])),
     ("23:30", CUENTAME), ("24:45", fixed(news, "La noche en 24h")), ("26:00", NOTICIAS24)],
    [("06:00", NOTICIAS24), ("09:00", films("futuro", "jurasico", subtitles=True)),
     ("11:10", fixed(show, "Cocina al punto con Peña y Tamara", "Cocina", "Recetas de temporada por toda España.")),
     ("12:10", fixed(show, "Corazón fin de semana", "Corazón")),
     ("15:00", TD_FINDE), ("15:45", TIEMPO), ("16:00", films("imposible", "gump", subtitles=True)),
     ("18:15", films("marshall", "atraco", subtitles=True)),
     ("20:00", fixed(show, "Aquí la Tierra", "Divulgativo")), ("21:00", TD_FINDE), ("21:45", TIEMPO),
     ("22:00", films("apellidos", "campeones", subtitles=True)), ("24:15", films("shawshank", "tiburon", subtitles=True)),
     ("26:45", NOTICIAS24)],
)

VERSION_ESPANOLA = films("maradentro", "volver", "madre", "lunes", "islaminima", subtitles=True)
LA2 = weekdays_weekend(
    [("06:00", fixed(show, "That's English", "Educativo")),
     ("06:30", fixed(documentary, "La aventura del saber", "Programa educativo de RTVE y el Ministerio de Educación.")),
     ("09:30", fixed(show, "Aquí hay trabajo", "Servicio público", "Ofertas de empleo, formación y emprendimiento.")),
     ("10:00", fixed(documentary, "Grandes documentales", "Naturaleza salvaje: los grandes parques nacionales de África.", extra="Naturaleza")),
     ("12:00", fixed(documentary, "Documenta2", "Historia y ciencia en primera persona.")),
     ("13:00", fixed(show, "Cachitos de hierro y cromo", "Música", "Viaje por la música española a través del archivo de RTVE.")),
     ("14:00", fixed(show, "Para todos La 2", "Divulgativo")),
     ("15:00", fixed(documentary, "Grandes documentales", "Los secretos del Mediterráneo: de Gibraltar a Estambul.", extra="Naturaleza", subtitles=True)),
     ("15:30", fixed(show, "Saber y ganar", "Concurso", "Concurso de cultura general.", presenters=["Jordi Hurtado"],
                     subtitles=True, keywords=["cultura general", "preguntas"])),
     ("16:15", fixed(documentary, "Grandes documentales", "La península ibérica, año cero: montañas, marismas y dehesas.", extra="Naturaleza", subtitles=True)),
     ("18:00", fixed(show, "El escarabajo verde", "Documental", "Medio ambiente y sostenibilidad.",
                     keywords=["medio ambiente", "sostenibilidad"])),
     ("18:30", fixed(show, "Página Two", "Cultura", "Libros, autores y lectores.")),
     ("19:00", fixed(documentary, "Imprescindibles", "Retratos de las grandes figuras de la cultura española.", subtitles=True)),
     ("20:00", fixed(show, "La 2 Cuántica", "Divulgativo")), ("20:30", fixed(news, "La 2 Noticias")),
     ("21:00", fixed(documentary, "Somos documentales", "Historias de la España rural que se vacía.")),
     ("22:00", VERSION_ESPANOLA), ("24:15", fixed(show, "Días de cine", "Cine", "Estrenos de la semana y entrevistas.")),
     ("25:15", fixed(show, "Conciertos de Radio 3", "Música")), ("25:45", fixed(documentary, "Documenta2", "Historia y ciencia en primera persona.")),
     ("27:00", fixed(show, "That's English", "Educativo"))],
    [("06:00", fixed(show, "That's English", "Educativo")),
     ("07:30", fixed(show, "Agrosfera", "Divulgativo", "El campo, la ganadería y el mundo rural.")),
     ("09:00", fixed(documentary, "Grandes documentales", "Los últimos lobos de Sierra Morena.", extra="Naturaleza")),
     ("11:00", fixed(show, "Los conciertos de La 2", "Música")),
     ("12:00", fixed(documentary, "Documenta2", "Historia y ciencia en primera persona.")),
     ("14:00", fixed(show, "Saber y ganar fin de semana", "Concurso", presenters=["Jordi Hurtado"], subtitles=True)),
     ("15:00", fixed(documentary, "Grandes documentales", "Gigantes del océano: las ballenas del Atlántico.", extra="Naturaleza")),
     ("17:00", films("casablanca", "tiffany", subtitles=True)),
     ("19:00", fixed(documentary, "Imprescindibles", "Retratos de las grandes figuras de la cultura española.")),
     ("20:00", fixed(show, "Atención obras", "Cultura", "Las artes escénicas y sus protagonistas.")),
     ("21:00", fixed(documentary, "Documaster", "Los mejores documentales del cine de autor.")),
     ("22:00", films("highnoon", "secreto", subtitles=True)), ("24:00", films("tesis", "verdugo", subtitles=True)),
     ("26:00", fixed(show, "That's English", "Educativo"))],
)

A3_NEWS = fixed(news, "Antena 3 Noticias 1", presenters=["Sandra Golpe"])
A3_NEWS2 = fixed(news, "Antena 3 Noticias 2", presenters=["Vicente Vallés"])
A3_FINDE = fixed(news, "Antena 3 Noticias fin de semana", presenters=["Matías Prats", "Mónica Carrillo"])
ANTENA3 = weekdays_weekend(
    [("06:00", fixed(show, "Minutos musicales", "Música")), ("06:15", fixed(news, "Noticias de la mañana")),
     ("08:55", fixed(show, "Espejo público", "Magacín", "Actualidad y debate.", presenters=["Susanna Griso"])),
     ("12:45", fixed(show, "La ruleta de la suerte", "Concurso", "Concurso de paneles y gajos.", presenters=["Jorge Fernández"])),
     ("14:00", fixed(show, "Cocina abierta de Karlos Arguiñano", "Cocina", "Recetas fáciles para el día a día.", presenters=["Karlos Arguiñano"])),
     ("15:00", A3_NEWS), ("15:45", fixed(sport, "Deportes Antena 3")), ("15:55", fixed(show, "El tiempo", "Información meteorológica")),
     ("16:00", SUENOS), ("17:00", fixed(show, "Y ahora Sonsoles", "Magacín", presenters=["Sonsoles Ónega"])),
     ("19:00", fixed(show, "Pasapalabra", "Concurso", "Dos concursantes se juegan el bote en El Rosco.", presenters=["Roberto Leal"])),
     ("21:00", A3_NEWS2), ("21:45", fixed(show, "El hormiguero 3.0", "Entretenimiento", "Invitados, ciencia y humor.", presenters=["Pablo Motos"])),
     ("22:50", films("pretty", "lalaland", "gladiator", "origen")), ("25:15", fixed(show, "The Game Show", "Concurso")),
     ("26:30", TELETIENDA)],
    [("06:00", fixed(show, "Minutos musicales", "Música")), ("07:00", fixed(show, "Pelopicopata", "Infantil")),
     ("11:00", fixed(show, "Centímetros cúbicos", "Motor")), ("11:45", fixed(show, "Los más", "Entretenimiento")),
     ("13:00", fixed(show, "La ruleta de la suerte", "Concurso", presenters=["Jorge Fernández"])),
     ("15:00", A3_FINDE), ("15:45", fixed(sport, "Deportes Antena 3")), ("16:00", films("lalaland", "pretty")),
     ("18:15", films("gladiator", "titanic")), ("21:00", A3_FINDE),
     ("22:00", films("origen", "matrix")), ("24:30", fixed(show, "The Game Show", "Concurso")), ("26:30", TELETIENDA)],
    friday_slots=None,
)

CUATRO = weekdays_weekend(
    [("06:00", fixed(show, "Puro Cuatro", "Magacín")), ("07:00", fixed(show, "¡Toma salami!", "Humor")),
     ("09:00", fixed(show, "Las mañanas de Cuatro", "Magacín", presenters=["Javier Ruiz"])),
     ("14:00", fixed(news, "Noticias Cuatro", presenters=["Roberto Arce"])), ("14:55", fixed(sport, "Deportes Cuatro")),
     ("15:30", fixed(show, "Todo es mentira", "Humor", "Actualidad y humor.", presenters=["Risto Mejide"])),
     ("17:15", fixed(show, "Cuatro al día", "Actualidad", presenters=["Joaquín Prat"])),
     ("20:00", fixed(news, "Noticias Cuatro 2")), ("20:45", fixed(sport, "Deportes Cuatro 2")),
     ("21:30", fixed(show, "First Dates", "Entretenimiento", "Citas a ciegas en un restaurante.", presenters=["Carlos Sobera"])),
     ("22:50", fixed(show, "Horizonte", "Actualidad", presenters=["Iker Jiménez"])),
     ("25:30", fixed(show, "En el punto de mira", "Reportajes")), ("27:00", fixed(show, "La tienda en casa", "Teletienda"))],
    [("06:00", fixed(show, "Puro Cuatro", "Magacín")), ("08:00", fixed(show, "Callejeros viajeros", "Viajes")),
     ("11:00", fixed(show, "Viajeros Cuatro", "Viajes")),
     ("14:00", fixed(news, "Noticias Cuatro fin de semana")), ("14:55", fixed(sport, "Deportes Cuatro")),
     ("15:30", fixed(show, "Home Cinema", "Cine")), ("16:00", films("mision", "indiana")),
     ("18:15", fixed(show, "Volando voy", "Entretenimiento", presenters=["Jesús Calleja"])),
     ("20:00", fixed(news, "Noticias Cuatro 2")), ("21:00", fixed(show, "Cuarto milenio", "Misterio", presenters=["Iker Jiménez"])),
     ("25:00", fixed(show, "En el punto de mira", "Reportajes")), ("27:00", fixed(show, "La tienda en casa", "Teletienda"))],
)

TELECINCO = weekdays_weekend(
    [("06:00", fixed(news, "Informativos Telecinco matinal")),
     ("08:55", fixed(show, "El programa de Ana Rosa", "Magacín", "Actualidad, sucesos y crónica social.", presenters=["Ana Rosa Quintana"])),
     ("14:10", fixed(show, "Ya es mediodía", "Magacín", presenters=["Sonsoles Ónega"])),
     ("15:00", fixed(news, "Informativos Telecinco", presenters=["Isabel Jiménez"])), ("15:40", fixed(sport, "Deportes Telecinco")),
     ("15:50", fixed(show, "El tiempo", "Información meteorológica")),
     ("16:00", fixed(show, "Tardear", "Magacín", "Crónica social, tertulias y la actualidad de los famosos.", presenters=["Ana Rosa Quintana"])),
     ("18:00", fixed(show, "El diario de Jorge", "Entretenimiento", presenters=["Jorge Javier Vázquez"])),
     ("20:00", fixed(show, "Reacción en cadena", "Concurso", presenters=["Ion Aramendi"])),
     ("21:00", fixed(news, "Informativos Telecinco 21:00", presenters=["Carlos Franganillo"])),
     ("21:45", fixed(show, "La familia de la tele", "Magacín", "Sálvame y sus colaboradores: tertulia, humor y corazón.")),
     ("23:00", fixed(show, "Gran Hermano", "Reality")), ("25:30", fixed(show, "La tienda en casa", "Teletienda"))],
    [("06:00", fixed(show, "La tienda en casa", "Teletienda")), ("08:00", fixed(show, "Fiesta", "Magacín", presenters=["Emma García"])),
     ("15:00", fixed(news, "Informativos Telecinco fin de semana", presenters=["José Ribagorda"])),
     ("15:40", fixed(sport, "Deportes Telecinco")),
     ("16:00", fixed(show, "¡De viernes!", "Corazón", "Exclusivas y entrevistas del corazón.")),
     ("21:00", fixed(news, "Informativos Telecinco 21:00")),
     ("21:45", fixed(show, "Gran Hermano: El debate", "Reality")), ("25:30", fixed(show, "La tienda en casa", "Teletienda"))],
)

LASEXTA = weekdays_weekend(
    [("06:00", fixed(show, "Minutos musicales", "Música")), ("07:00", fixed(show, "Previo Aruser@s", "Actualidad")),
     ("09:00", fixed(show, "Aruser@s", "Actualidad", presenters=["Alfonso Arús"])),
     ("11:00", fixed(show, "Al rojo vivo", "Actualidad", "Análisis político en directo.", presenters=["Antonio García Ferreras"])),
     ("14:00", fixed(news, "laSexta Noticias 14h", presenters=["Helena Resano"])), ("14:55", fixed(sport, "Jugones")),
     ("15:30", fixed(show, "La Roca", "Actualidad")), ("15:45", fixed(show, "Zapeando", "Humor", presenters=["Dani Mateo"])),
     ("17:15", fixed(show, "Más vale tarde", "Actualidad")), ("20:00", fixed(news, "laSexta Noticias 20h")),
     ("21:00", fixed(show, "El intermedio", "Humor", "La actualidad, con humor.", presenters=["El Gran Wyoming"])),
     ("22:30", films("orfanato", "celda", "matrix", "madmax", "corderos")),
     ("24:45", fixed(show, "Crímenes imperfectos", "Reportajes")), ("26:30", fixed(show, "Juega con el 8", "Entretenimiento"))],
    [("06:00", fixed(show, "Minutos musicales", "Música")), ("08:00", fixed(show, "¿Quién vive ahí?", "Reportajes")),
     ("11:00", fixed(show, "Equipo de investigación", "Reportajes")),
     ("14:00", fixed(news, "laSexta Noticias fin de semana")), ("14:55", fixed(sport, "Jugones")),
     ("15:30", fixed(show, "La Roca", "Actualidad")), ("16:00", films("corderos", "celda")),
     ("18:15", fixed(show, "Equipo de investigación", "Reportajes")), ("20:00", fixed(news, "laSexta Noticias 20h")),
     ("21:30", fixed(show, "laSexta Xplica", "Debate")), ("25:00", fixed(show, "Juega con el 8", "Entretenimiento"))],
)


def plan_24h():
    """24h is planned in real time, every hour of the week, so that the night of the clock
    change shows 02:00 +0200 followed by 02:00 +0100."""
    slots = []
    start = local_to_utc(DAYS[0], "06:00")
    end = local_to_utc(*WEEK_END_LOCAL)
    at = start
    while at < end:
        offset = 7200 if at < DST_END_UTC else 3600
        local = time.gmtime(at + offset)
        hour, weekday = local.tm_hour, local.tm_wday
        if 6 <= hour < 9 and weekday < 5:
            item = news("Telediario matinal", subtitles=True)
        elif hour == 15:
            item = news("Telediario 1" if weekday < 5 else "Telediario fin de semana", subtitles=True)
        elif 16 <= hour < 20 and weekday < 5:
            item = news("La tarde en 24h", presenters=["Lara Siscar"])
        elif hour == 21:
            item = news("Telediario 2" if weekday < 5 else "Telediario fin de semana", subtitles=True)
        elif hour == 22 and weekday == 5:
            item = show("Informe semanal", "Reportajes", "Los grandes temas de la semana en reportajes.", subtitles=True)
        elif 22 <= hour < 24 and weekday < 5:
            item = news("La noche en 24h", presenters=["Xabier Fortes"])
        elif hour == 12 and weekday == 6:
            item = show("Parlamento", "Actualidad", "La semana en el Congreso y el Senado.")
        else:
            item = news("Noticias 24 horas")
        # Longer programmes span several hours; the rolling news is one programme an hour.
        continues = slots and slots[-1][1]["title"] == item["title"]
        if not continues or item["title"] == "Noticias 24 horas":
            slots.append((at, item))
        at += 3600
    return slots, end


CLAN = weekdays_weekend(
    block("06:00", "09:00", 10, Rotation(PEPPA, POCOYO, BLUEY)) +
    block("09:00", "14:00", 25, Rotation(PATRULLA, MASHA, ESPONJA)) +
    block("14:00", "17:00", 10, Rotation(PEPPA, BLUEY)) +
    block("17:00", "21:00", 25, Rotation(ESPONJA, PATRULLA, MASHA)) +
    [("21:00", fixed(show, "Los Lunnis", "Infantil", "Lucho, Lula y sus amigos se despiden hasta mañana."))] +
    block("21:30", "30:00", 30, Rotation(POCOYO, PEPPA)),
    block("06:00", "10:00", 10, Rotation(PEPPA, POCOYO, BLUEY)) +
    [("10:00", films("tadeo", "nemo"))] +
    block("11:45", "21:00", 25, Rotation(PATRULLA, MASHA, ESPONJA)) +
    [("21:00", fixed(show, "Los Lunnis", "Infantil"))] +
    block("21:30", "30:00", 30, Rotation(POCOYO, PEPPA)),
)

TELEDEPORTE = weekdays_weekend(
    [("06:00", fixed(sport, "Conexión Teledeporte")),
     ("10:00", fixed(sport, "Tenis: ATP 500 Viena", "Torneo de Viena, primera ronda.", extra="Tenis")),
     ("16:00", fixed(sport, "Balonmano: Liga Asobal", "Resumen de la jornada.", extra="Balonmano")),
     ("18:00", fixed(sport, "Tenis: ATP 500 Viena", "Torneo de Viena, sesión de tarde.", extra="Tenis")),
     ("21:00", fixed(sport, "Fútbol sala: Primera División", "ElPozo Murcia - Barça.", extra="Fútbol sala")),
     ("23:00", fixed(sport, "Estudio Estadio", "La actualidad deportiva del día.")),
     ("24:00", fixed(sport, "Conexión Teledeporte"))],
    [("06:00", fixed(sport, "Conexión Teledeporte")),
     ("10:00", fixed(sport, "Tenis: ATP 500 Viena", "Semifinales y final.", extra="Tenis")),
     ("13:00", fixed(sport, "Fútbol: Liga F", "Real Madrid - FC Barcelona.", extra="Fútbol", commentators=["Marta Corredera"])),
     ("15:00", fixed(sport, "Baloncesto: Liga Endesa", "Unicaja - Valencia Basket.", extra="Baloncesto")),
     ("17:00", fixed(sport, "Balonmano: Liga Asobal", "Barça - Fraikin Granollers.", extra="Balonmano")),
     ("19:00", fixed(sport, "Voleibol: Superliga", "Guaguas - Río Duero Soria.", extra="Voleibol")),
     ("21:00", fixed(sport, "Estudio Estadio", "Goles, resultados y análisis de la jornada.")),
     ("24:00", fixed(sport, "Conexión Teledeporte"))],
)

NEOX = weekdays_weekend(
    block("06:00", "07:30", 30, fixed(show, "Neox Kidz", "Infantil")) +
    block("07:30", "13:30", 30, Rotation(BIGBANG, MODERN)) +
    block("13:30", "20:30", 30, SIMPSON) +
    block("20:30", "22:30", 30, Rotation(BIGBANG, MODERN)) +
    [("22:30", films("shrek", "delreves", "futuro"))] + block("24:30", "30:00", 30, Rotation(SIMPSON, MODERN)),
    block("06:00", "09:00", 30, fixed(show, "Neox Kidz", "Infantil")) +
    block("09:00", "21:00", 30, SIMPSON) +
    [("21:00", films("jurasico", "futuro"))] + block("23:15", "30:00", 35, Rotation(BIGBANG, MODERN)),
)

NOVA = weekdays_weekend(
    [("06:00", TELETIENDA), ("08:00", fixed(show, "Cocina abierta de Karlos Arguiñano", "Cocina", presenters=["Karlos Arguiñano"])),
     ("09:00", HERMANOS), ("11:00", TIERRA), ("13:00", PECADO), ("15:00", HERMANOS), ("17:00", TIERRA),
     ("19:00", PECADO), ("21:00", HERMANOS), ("23:00", TIERRA), ("25:00", PECADO), ("27:00", TELETIENDA)],
    [("06:00", TELETIENDA), ("08:00", fixed(show, "Cocina abierta de Karlos Arguiñano", "Cocina")),
     ("09:30", HERMANOS), ("12:30", TIERRA), ("15:30", PECADO), ("18:30", HERMANOS), ("21:30", TIERRA),
     ("24:30", PECADO), ("27:00", TELETIENDA)],
)

MEGA = weekdays_weekend(
    [("06:00", fixed(show, "Minutos musicales", "Música")),
     ("07:00", fixed(documentary, "Crímenes imperfectos", "Los casos resueltos por la ciencia forense.")),
     ("11:00", fixed(show, "¿Quién da más?", "Reality", "Subastas de trasteros abandonados.")),
     ("15:00", fixed(documentary, "Mil maneras de morir", "Muertes insólitas, contadas con humor negro.")),
     ("19:00", fixed(show, "Crímenes imperfectos", "Reportajes")),
     ("22:00", fixed(show, "El desmarque", "Deportes")),
     ("24:00", fixed(show, "El chiringuito de Jugones", "Deportes", "Tertulia de fútbol.", presenters=["Josep Pedrerol"])),
     ("26:45", fixed(show, "Minutos musicales", "Música"))],
    [("06:00", fixed(show, "Minutos musicales", "Música")),
     ("07:00", fixed(show, "¿Quién da más?", "Reality")),
     ("14:00", films("alien", "madmax")), ("16:15", fixed(documentary, "Mil maneras de morir", "Muertes insólitas.")),
     ("22:00", fixed(show, "Crímenes imperfectos", "Reportajes")),
     ("24:00", fixed(show, "El chiringuito de Jugones", "Deportes", presenters=["Josep Pedrerol"])),
     ("26:45", fixed(show, "Minutos musicales", "Música"))],
)

ATRESERIES = weekdays_weekend(
    [("06:00", fixed(show, "Minutos musicales", "Música")), ("07:00", HOMBRES), ("08:15", HOMBRES),
     ("09:30", AQUINOHAY), ("10:30", AQUINOHAY), ("11:30", INTERNADO), ("12:45", INTERNADO),
     ("14:00", films("agora", "otros", "fauno")), ("16:15", VISAVIS), ("17:30", VISAVIS),
     ("18:45", HOMBRES), ("20:00", AQUINOHAY), ("21:00", AQUINOHAY), ("22:00", films("fauno", "agora", "otros")),
     ("24:15", VISAVIS), ("25:30", INTERNADO), ("26:45", fixed(show, "Minutos musicales", "Música"))],
    [("06:00", fixed(show, "Minutos musicales", "Música")), ("07:00", AQUINOHAY), ("08:00", AQUINOHAY),
     ("09:00", AQUINOHAY), ("10:00", HOMBRES), ("11:15", HOMBRES), ("12:30", HOMBRES),
     ("14:00", films("otros", "fauno")), ("16:15", INTERNADO), ("17:30", INTERNADO), ("18:45", INTERNADO),
     ("20:00", VISAVIS), ("21:15", VISAVIS), ("22:30", films("agora", "otros")), ("24:45", VISAVIS),
     ("26:00", fixed(show, "Minutos musicales", "Música"))],
)

FDF = weekdays_weekend(
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "10:00", 60, SERRANO) +
    block("10:00", "15:00", 75, LQSA) + block("15:00", "20:00", 60, AIDA) + block("20:00", "25:00", 75, LQSA) +
    block("25:00", "30:00", 60, AIDA),
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "12:00", 60, AIDA) +
    block("12:00", "22:00", 75, LQSA) + block("22:00", "30:00", 60, AIDA),
)

ENERGY = weekdays_weekend(
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "11:00", 60, COBRA) +
    block("11:00", "16:00", 50, CSI) + block("16:00", "20:00", 60, NCIS) + block("20:00", "22:00", 60, FORJADO) +
    block("22:00", "26:00", 60, MENTES) + block("26:00", "30:00", 60, COBRA),
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "12:00", 60, NCIS) +
    [("12:00", films("topgun", "mision"))] + block("14:00", "22:00", 60, MENTES) + block("22:00", "30:00", 60, FORJADO),
)

DIVINITY = weekdays_weekend(
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "12:00", 60, CAZADORES) +
    [("12:00", fixed(show, "Esposas de Beverly Hills", "Reality")), ("14:00", fixed(show, "Love Is in the Air", "Serie")),
     ("16:00", fixed(show, "Gran Hermano: Límite 48 horas", "Reality")), ("18:00", films("pretty", "tiffany", "lalaland")),
     ("20:15", fixed(show, "First Dates", "Entretenimiento", presenters=["Carlos Sobera"]))] +
    block("21:30", "30:00", 60, CAZADORES),
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "15:00", 60, CAZADORES) +
    [("15:00", films("tiffany", "pretty")), ("17:15", fixed(show, "Esposas de Beverly Hills", "Reality"))] +
    block("20:00", "30:00", 60, CAZADORES),
)

BOING = weekdays_weekend(
    block("06:00", "10:00", 20, Rotation(TOMJERRY, DORAEMON)) + block("10:00", "16:00", 25, Rotation(TITANS, GUMBALL, POKEMON)) +
    block("16:00", "22:00", 20, Rotation(DORAEMON, TITANS, GUMBALL)) + block("22:00", "30:00", 30, Rotation(TOMJERRY, DORAEMON)),
    block("06:00", "11:00", 20, Rotation(TOMJERRY, DORAEMON)) + [("11:00", films("shrek", "delreves"))] +
    block("12:45", "22:00", 25, Rotation(POKEMON, TITANS, GUMBALL)) + block("22:00", "30:00", 30, Rotation(TOMJERRY, DORAEMON)),
)

BEMAD = weekdays_weekend(
    [("06:00", fixed(show, "La tienda en casa", "Teletienda")),
     ("08:00", fixed(documentary, "Desafío en el abismo", "Escaladores y espeleólogos en los lugares más extremos del planeta.")),
     ("11:00", fixed(documentary, "Construcciones imposibles", "Las obras de ingeniería más difíciles del mundo.", extra="Ingeniería")),
     ("14:00", fixed(show, "Top Gear", "Motor", "Coches, retos y carreras imposibles.")),
     ("17:00", fixed(documentary, "Pesca radical", "Pescadores de todo el mundo en busca de las presas más grandes.")),
     ("20:00", fixed(show, "Top Gear", "Motor")), ("22:00", films("alien", "madmax", "matrix")),
     ("24:15", fixed(documentary, "Construcciones imposibles", "Las obras de ingeniería más difíciles del mundo.")),
     ("27:00", fixed(show, "La tienda en casa", "Teletienda"))],
    [("06:00", fixed(show, "La tienda en casa", "Teletienda")), ("08:00", fixed(show, "Top Gear", "Motor")),
     ("14:00", fixed(documentary, "Pesca radical", "Pescadores de todo el mundo en busca de las presas más grandes.")),
     ("18:00", fixed(documentary, "Desafío en el abismo", "Escaladores y espeleólogos en los lugares más extremos del planeta.")),
     ("22:00", films("madmax", "alien")), ("24:15", fixed(show, "Top Gear", "Motor")),
     ("27:00", fixed(show, "La tienda en casa", "Teletienda"))],
)

DMAX = weekdays_weekend(
    block("06:00", "09:00", 60, JOYAS) + block("09:00", "13:00", 60, FIEBRE) + block("13:00", "16:00", 60, ALASKA) +
    block("16:00", "19:00", 60, FRONTERAS) + block("19:00", "22:00", 60, JOYAS) + block("22:00", "25:00", 60, DESNUDO) +
    block("25:00", "30:00", 60, FIEBRE),
    block("06:00", "10:00", 60, ALASKA) + block("10:00", "16:00", 60, FIEBRE) + block("16:00", "22:00", 60, DESNUDO) +
    block("22:00", "30:00", 60, FRONTERAS),
)

PARAMOUNT = weekdays_weekend(
    [("06:00", fixed(show, "Paramount Network presenta", "Cine"))] + block("07:00", "11:00", 60, YELLOW) +
    [("11:00", films("topgun", "indiana", "mision", "gump", "padrino")),
     ("14:00", films("gump", "ryan", "titanic", "tiburon", "shawshank")),
     ("17:30", films("indiana", "mision", "topgun", "padrino", "gump"))] +
    block("20:30", "22:30", 60, YELLOW) +
    [("22:30", films("padrino", "shawshank", "ryan", "titanic", "indiana")),
     ("26:00", films("tiburon", "topgun", "mision", "ryan", "gump"))],
    [("06:00", fixed(show, "Paramount Network presenta", "Cine"))] + block("07:00", "12:00", 60, YELLOW) +
    [("12:00", films("titanic", "padrino")), ("16:00", films("ryan", "shawshank")), ("19:30", films("indiana", "tiburon")),
     ("22:00", films("shawshank", "ryan")), ("25:00", films("mision", "topgun"))] +
    block("27:00", "30:00", 60, YELLOW),
)

TRECE = weekdays_weekend(
    [("06:00", fixed(show, "Palabra de vida", "Religión")), ("07:00", fixed(news, "Al día mañana")),
     ("10:00", fixed(show, "Santa Misa", "Religión")), ("10:45", fixed(show, "Periferias", "Actualidad")),
     ("12:00", fixed(show, "El Ángelus", "Religión")), ("12:05", films("highnoon", "riobravo", "centauros", "valance", "casablanca")),
     ("14:30", fixed(news, "Trece al mediodía")), ("15:30", films("centauros", "valance", "riobravo", "highnoon", "tiffany")),
     ("17:45", films("valance", "casablanca", "highnoon", "riobravo", "centauros")),
     ("20:30", fixed(news, "Trece al día")),
     ("21:30", fixed(show, "El cascabel", "Actualidad", "Tertulia de actualidad política.")),
     ("24:00", fixed(show, "La Linterna de la Iglesia", "Religión")), ("25:00", fixed(show, "Palabra de vida", "Religión"))],
    [("06:00", fixed(show, "Palabra de vida", "Religión")), ("09:00", fixed(show, "Santa Misa", "Religión")),
     ("10:00", films("riobravo", "centauros")), ("12:30", fixed(show, "El Ángelus", "Religión")),
     ("12:35", films("valance", "highnoon")), ("15:00", films("casablanca", "tiffany")),
     ("17:00", films("centauros", "riobravo")), ("20:00", fixed(news, "Trece al día")),
     ("21:00", films("highnoon", "valance")), ("23:00", fixed(show, "Misioneros por el mundo", "Religión")),
     ("24:00", fixed(show, "Palabra de vida", "Religión"))],
)

DKISS = weekdays_weekend(
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "13:00", 60, PIMPLE) +
    block("13:00", "20:00", 60, KILOS) + block("20:00", "24:00", 60, PIMPLE) + block("24:00", "30:00", 60, KILOS),
    [("06:00", fixed(show, "La tienda en casa", "Teletienda"))] + block("07:00", "18:00", 60, KILOS) +
    block("18:00", "30:00", 60, PIMPLE),
)

TN = fixed(news, "Telenotícies migdia", lang="ca")
TN_VESPRE = fixed(news, "Telenotícies vespre", lang="ca")
TV3 = weekdays_weekend(
    [("06:00", fixed(news, "Notícies 3/24", lang="ca")),
     ("08:00", fixed(show, "Els matins", "Magazín", "Actualitat, entrevistes i tertúlia.", lang="ca")),
     ("13:00", fixed(show, "Cuines", "Cuina", "Receptes de cuina catalana.", lang="ca")),
     ("14:00", fixed(show, "Tot es mou", "Magazín", lang="ca")), ("14:30", TN),
     ("15:40", COMSIFOS),
     ("16:20", fixed(show, "Planta baixa", "Magazín", "Tarda d'actualitat i entreteniment.", lang="ca")),
     ("19:00", fixed(show, "Atrapa'm si pots", "Concurs", lang="ca")), ("21:00", TN_VESPRE),
     ("22:05", fixed(show, "Està passant", "Humor", "L'actualitat del dia, amb humor.", lang="ca")),
     ("22:55", Rotation(fixed(film, "panegre", lang="ca"), fixed(film, "estiu", lang="ca"),
                        fixed(film, "alcarras", lang="ca"), fixed(film, "futuro", lang="ca", title="Retorn al futur"))),
     ("24:55", fixed(show, "Polònia", "Humor", "Sàtira política.", lang="ca")),
     ("25:45", fixed(news, "Notícies 3/24", lang="ca"))],
    [("06:00", fixed(news, "Notícies 3/24", lang="ca")),
     ("09:00", fixed(documentary, "Sense ficció", "Documentals d'actualitat.", lang="ca")),
     ("12:00", fixed(show, "Zona Franca", "Humor", lang="ca")), ("14:30", fixed(news, "Telenotícies cap de setmana", lang="ca")),
     ("15:40", films("estiu", "alcarras", lang="ca")),
     ("18:00", fixed(show, "Joc de cartes", "Concurs", "Tres restaurants competeixen per ser el millor.", lang="ca")),
     ("21:00", fixed(news, "Telenotícies vespre", lang="ca")), ("22:00", films("alcarras", "panegre", lang="ca")),
     ("24:15", fixed(documentary, "Sense ficció", "Documentals d'actualitat.", lang="ca")),
     ("25:45", fixed(news, "Notícies 3/24", lang="ca"))],
)

ETB1 = weekdays_weekend(
    [("06:00", fixed(show, "Kantugiro", "Musika", lang="eu")),
     ("08:00", fixed(show, "Egun on Euskadi", "Magazina", lang="eu")),
     ("10:00", fixed(show, "Hiru Damatxo", "Haurrentzat", lang="eu")),
     ("13:00", fixed(show, "Mihiluze", "Lehiaketa", "Hitz jokoen lehiaketa.", lang="eu")),
     ("14:00", fixed(news, "Gaur egun", lang="eu", desc="Euskal Herriko eta munduko albisteak.")),
     ("15:00", GOAZEN), ("16:00", fixed(show, "Ahoz aho", "Lehiaketa", lang="eu")),
     ("17:00", fixed(sport, "Pilota: Binakako Txapelketa", "Eskuz binakako txapelketa.", extra="Pilota", lang="eu")),
     ("19:00", fixed(show, "Herri txiki, infernu handi", "Umorea", lang="eu")),
     ("20:30", fixed(news, "Gaur egun", lang="eu")), ("21:30", fixed(show, "Txoko", "Sukaldaritza", lang="eu")),
     ("22:30", films("handia", "loreak", lang="eu")), ("24:30", fixed(show, "Kantugiro", "Musika", lang="eu"))],
    [("06:00", fixed(show, "Kantugiro", "Musika", lang="eu")), ("09:00", fixed(show, "Hiru Damatxo", "Haurrentzat", lang="eu")),
     ("12:00", fixed(sport, "Pilota: Binakako Txapelketa", "Finalerdia.", extra="Pilota", lang="eu")),
     ("14:00", fixed(news, "Gaur egun", lang="eu")), ("15:00", films("loreak", "handia", lang="eu")),
     ("17:00", fixed(sport, "Kirolez kirol", lang="eu")), ("20:30", fixed(news, "Gaur egun", lang="eu")),
     ("21:30", films("handia", "loreak", lang="eu")), ("23:45", fixed(show, "Kantugiro", "Musika", lang="eu"))],
)

SCHEDULES = {
    "La1.es": LA1, "La2.es": LA2, "Antena3.es": ANTENA3, "Cuatro.es": CUATRO, "Telecinco.es": TELECINCO,
    "LaSexta.es": LASEXTA, "Clan.es": CLAN, "Teledeporte.es": TELEDEPORTE, "Neox.es": NEOX, "Nova.es": NOVA,
    "Mega.es": MEGA, "Atreseries.es": ATRESERIES, "FDF.es": FDF, "Energy.es": ENERGY, "Divinity.es": DIVINITY,
    "Boing.es": BOING, "BeMad.es": BEMAD, "DMAX.es": DMAX, "ParamountNetwork.es": PARAMOUNT, "Trece.es": TRECE,
    "DKiss.es": DKISS, "TV3.es": TV3, "ETB1.es": ETB1,
}


def channel_airings(channel_id):
    """[(start UTC, stop UTC, item)], contiguous over the week."""
    if channel_id == "24h.es":
        slots, end = plan_24h()
    else:
        plan = SCHEDULES[channel_id]
        slots = []
        for index, date in enumerate(DAYS):
            day_slots = plan(index)
            assert day_slots[0][0] == "06:00", (channel_id, index)
            times = [slot[0] for slot in day_slots]
            assert times == sorted(times, key=lambda t: tuple(int(p) for p in t.split(":"))), (channel_id, index, times)
            for hhmm, maker in day_slots:
                slots.append((local_to_utc(date, hhmm), maker()))
        end = local_to_utc(*WEEK_END_LOCAL)
    airings = []
    for i, (start, item) in enumerate(slots):
        stop = slots[i + 1][0] if i + 1 < len(slots) else end
        assert stop > start, (channel_id, start, item["title"])
        airings.append((start, stop, item))
    return airings


# --- XML -----------------------------------------------------------------------------------------

def element(name, text, lang=None, indent="    "):
    attr = " lang=%s" % quoteattr(lang) if lang else ""
    return "%s<%s%s>%s</%s>" % (indent, name, attr, escape(text), name)


def write_programme(out, channel_id, start, stop, item, shown_before):
    lang = item["lang"]
    out.append('  <programme start="%s" stop="%s" channel="%s">' % (xmltv_time(start), xmltv_time(stop), channel_id))
    out.append(element("title", item["title"], lang))
    for text, text_lang in item.get("other_titles", []):
        out.append(element("title", text, text_lang))
    if item.get("sub_title"):
        out.append(element("sub-title", item["sub_title"], lang))
    if item.get("desc"):
        out.append(element("desc", item["desc"], lang))
    credits = item.get("credits") or []
    if credits:
        out.append("    <credits>")
        for role in ("director", "actor", "writer", "presenter", "commentator"):
            for credit_role, name, character in credits:
                if credit_role == role:
                    attr = " role=%s" % quoteattr(character) if character else ""
                    out.append("      <%s%s>%s</%s>" % (role, attr, escape(name), role))
        out.append("    </credits>")
    if item.get("date"):
        out.append(element("date", item["date"]))
    for text, text_lang in item["categories"]:
        out.append(element("category", text, text_lang))
    for text, text_lang in item.get("keywords") or []:
        out.append(element("keyword", text, text_lang))
    out.append(element("language", lang))
    if item.get("orig_lang"):
        out.append(element("orig-language", item["orig_lang"]))
    if item.get("length"):
        out.append('    <length units="minutes">%d</length>' % item["length"])
    if item.get("icon"):
        out.append('    <icon src=%s width="500" height="750"/>' % quoteattr(item["icon"]))
    for country in item.get("countries") or []:
        out.append(element("country", country))
    if item.get("episode"):
        xmltv_ns, onscreen = item["episode"]
        out.append('    <episode-num system="xmltv_ns">%s</episode-num>' % escape(xmltv_ns))
        out.append('    <episode-num system="onscreen">%s</episode-num>' % escape(onscreen))
    video = item.get("video")
    if video:
        out.append("    <video>")
        if "colour" in video:
            out.append("      <colour>%s</colour>" % ("yes" if video["colour"] else "no"))
        out.append("      <aspect>%s</aspect>" % video["aspect"])
        out.append("      <quality>%s</quality>" % video["quality"])
        out.append("    </video>")
    audio = item.get("audio")
    if audio:
        out.append("    <audio>")
        out.append("      <stereo>%s</stereo>" % audio["stereo"])
        out.append("    </audio>")
    if shown_before:
        out.append('    <previously-shown start="%s" channel="%s"/>' % shown_before)
    if item.get("premiere"):
        out.append("    <premiere/>")
    if item.get("new"):
        out.append("    <new/>")
    if item.get("subtitles"):
        out.append('    <subtitles type="teletext">')
        out.append("      <language>%s</language>" % lang)
        out.append("    </subtitles>")
    if item.get("rating"):
        out.append('    <rating system="ES">')
        out.append("      <value>%s</value>" % escape(item["rating"]))
        out.append("    </rating>")
    if item.get("stars"):
        out.append("    <star-rating>")
        out.append("      <value>%s</value>" % item["stars"])
        out.append("    </star-rating>")
    out.append("  </programme>")


def build():
    airings = {channel_id: channel_airings(channel_id) for channel_id, _, _ in CHANNELS}

    # A film's first airing of the week is a premiere when it is recent; later airings point back
    # at the one before (previously-shown), in time order across all channels.
    film_airings = sorted((start, channel_id, index) for channel_id, items in airings.items()
                          for index, (start, _, item) in enumerate(items) if item.get("film"))
    last_shown, shown_before = {}, {}
    for start, channel_id, index in film_airings:
        item = airings[channel_id][index][2]
        key = item["film"]
        if key in last_shown:
            shown_before[(channel_id, index)] = last_shown[key]
        elif key in PREMIERES:
            item["premiere"] = True
        last_shown[key] = (xmltv_time(start), channel_id)

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!DOCTYPE tv SYSTEM "xmltv.dtd">',
           "<!-- Generated by Fixtures/tools/make_xmltv_sample.py: edit the script, not this file. -->",
           '<tv date="20261019" source-info-name="tvguide sample guide" '
           'generator-info-name="make_xmltv_sample.py">']
    for channel_id, name, lang in CHANNELS:
        out.append('  <channel id="%s">' % channel_id)
        out.append(element("display-name", name, lang, indent="    "))
        out.append('    <icon src="%slogos/%s.png"/>' % (ICON_BASE, channel_id))
        out.append("  </channel>")
    for channel_id, _, _ in CHANNELS:
        for index, (start, stop, item) in enumerate(airings[channel_id]):
            write_programme(out, channel_id, start, stop, item, shown_before.get((channel_id, index)))
    out.append("</tv>")
    return "\n".join(out) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, "..", "xmltv", "sample.xml"))
    args = parser.parse_args()
    text = build()
    with open(args.out, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    print("wrote %s (%d programmes)" % (os.path.normpath(args.out), text.count("<programme ")))


if __name__ == "__main__":
    main()
