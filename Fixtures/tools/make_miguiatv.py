#!/usr/bin/env python3
"""Writes the recorded MiGuiaTV API responses under Fixtures/miguiatv/.

The recording is the week from Monday 2026-10-19 06:00 Europe/Madrid (+0200) to Monday
2026-10-26 06:00 (+0100), which contains the end of summer time (Sunday 25, 03:00 CEST ->
02:00 CET). Output is deterministic: run it again and the files do not change.

    python3 Fixtures/tools/make_miguiatv.py [--out Fixtures/miguiatv]

Files (the layout mirrors the request path after the API's base URL, see the README):
    es_ES/channels.json                    channels, variant 1: {"data": [[id, name, type, language, image]]}
    variant-nested/es_ES/channels.json     channels, variant 2: {"data": {"channels": [[id, name, type, image]]}}
    es_ES/channel/<id>.json                a channel's schedule for the whole week: {"data": [show, ...]}
    es_ES/channel/now.json                 what airs on each channel at Wednesday 2026-10-21 21:00 +0200

Schedules are written as local wall-clock templates per broadcast day (06:00 to 06:00; hours
24-29 are after midnight) and converted to Unix seconds with the one DST rule of the week, so that
this script needs no time-zone database. Films carry their TMDB id as showID; other shows get a
stable id derived from their title.
"""

import argparse
import calendar
import json
import os
import zlib

LOGO_BASE = "https://www.miguia.tv/img/channels/"
BACKDROP_BASE = "https://www.miguia.tv/img/backdrops/"

# (MiGuiaTV id, name, type, language) — the brief's sample line-up.
CHANNELS = [
    (1, "La 1", "national", "es"), (2, "La 2", "national", "es"), (3, "Antena 3", "national", "es"),
    (4, "Cuatro", "national", "es"), (5, "Telecinco", "national", "es"), (6, "laSexta", "national", "es"),
    (7, "24h", "national", "es"), (8, "Clan", "national", "es"), (9, "Teledeporte", "national", "es"),
    (10, "Neox", "national", "es"), (11, "Nova", "national", "es"), (12, "Mega", "national", "es"),
    (13, "Atreseries", "national", "es"), (14, "FDF", "national", "es"), (15, "Energy", "national", "es"),
    (16, "Divinity", "national", "es"), (17, "Boing", "national", "es"), (18, "Be Mad", "national", "es"),
    (19, "DMAX", "national", "es"), (20, "Paramount Network", "national", "es"), (21, "TRECE", "national", "es"),
    (22, "DKISS", "national", "es"), (23, "TV3", "regional", "ca"), (24, "ETB 1", "regional", "eu"),
]

# Broadcast days Monday 19 .. Sunday 25 October 2026.
DAYS = [(2026, 10, 19 + i) for i in range(7)]
# Summer time ends at 01:00 UTC on Sunday 25 October 2026.
DST_END_UTC = calendar.timegm((2026, 10, 25, 1, 0, 0))
NOW_LOCAL = ((2026, 10, 21), "21:00")


def local_to_utc(date, hhmm):
    """Unix seconds of a Madrid wall-clock time on a broadcast day (hours 24-29 run into the next
    date). In the repeated hour of 25 October the first occurrence (CEST) is meant."""
    hours, minutes = (int(part) for part in hhmm.split(":"))
    naive = calendar.timegm((date[0], date[1], date[2], 0, 0, 0)) + hours * 3600 + minutes * 60
    summer = naive - 7200
    return summer if summer < DST_END_UTC else naive - 3600


def show_id(title):
    return str(100000 + zlib.crc32(title.encode("utf-8")) % 900000)


# --- films: TMDB id -> (title, genre, users' rating, synopsis) ------------------------------------

FILMS = {
    # Spanish cinema
    1417: ("El laberinto del fauno", "Fantástico", 7.8, "España, 1944. Ofelia se adentra en un laberinto donde un fauno le revela que es una princesa de un reino subterráneo."),
    255343: ("Ocho apellidos vascos", "Comedia", 6.4, "Un sevillano que nunca ha salido de Andalucía viaja al País Vasco detrás de Amaia y acaba haciéndose pasar por vasco."),
    1913: ("Mar adentro", "Drama", 7.7, "Ramón Sampedro lleva casi treinta años postrado en una cama y lucha por decidir sobre su propia muerte."),
    1933: ("Los otros", "Terror", 7.6, "En una mansión de Jersey aislada por la niebla, Grace protege a sus hijos de la luz mientras espera a su marido."),
    219: ("Volver", "Drama", 7.5, "Raimunda y Sole reciben en Madrid la visita inesperada de su madre, a la que creían muerta en un incendio."),
    26428: ("Ágora", "Histórico", 6.9, "Alejandría, siglo IV. La astrónoma Hipatia defiende el saber mientras la ciudad se desgarra entre religiones."),
    33273: ("Celda 211", "Thriller", 7.5, "El primer día de trabajo de Juan como funcionario de prisiones coincide con un motín y se hace pasar por preso."),
    6537: ("El orfanato", "Terror", 7.4, "Laura vuelve con su familia al orfanato de su infancia; allí su hijo empieza a jugar con amigos invisibles."),
    99: ("Todo sobre mi madre", "Drama", 7.8, "Tras perder a su hijo, Manuela viaja a Barcelona en busca del padre del chico, que nunca supo que existía."),
    80278: ("Lo imposible", "Drama", 7.3, "Unas vacaciones en Tailandia se convierten en una lucha por sobrevivir cuando el tsunami de 2004 arrasa la costa."),
    25376: ("El secreto de sus ojos", "Thriller", 7.9, "Un funcionario judicial retirado escribe una novela sobre un crimen de 1974 que nunca pudo olvidar."),
    64: ("Hable con ella", "Drama", 7.6, "Benigno y Marco se conocen en una clínica donde cuidan de dos mujeres en coma."),
    8329: ("[REC]", "Terror", 7.3, "Una reportera y su cámara quedan atrapados con los bomberos en un edificio de Barcelona puesto en cuarentena."),
    411088: ("Contratiempo", "Thriller", 8.0, "Un empresario acusado de asesinato prepara su defensa con una abogada en una sola noche."),
    63311: ("La piel que habito", "Drama", 7.3, "Un cirujano plástico obsesionado con crear una piel resistente mantiene a una misteriosa paciente en su casa."),
    265195: ("Relatos salvajes", "Comedia", 7.9, "Seis historias de personas normales que, llevadas al límite, pierden el control."),
    258230: ("Un monstruo viene a verme", "Fantástico", 7.3, "Conor, de doce años, recibe cada noche la visita de un monstruo que le cuenta historias mientras su madre enferma."),
    619264: ("El hoyo", "Ciencia ficción", 7.0, "En una prisión vertical, una plataforma con comida baja cada día de nivel en nivel."),
    # Hollywood and world cinema
    597: ("Titanic", "Drama", 7.9, "A bordo del Titanic, la joven aristócrata Rose se enamora de Jack, un artista sin dinero."),
    238: ("El padrino", "Drama", 8.7, "Don Vito Corleone, patriarca de una familia mafiosa de Nueva York, entrega su imperio a su hijo menor."),
    13: ("Forrest Gump", "Drama", 8.5, "Un hombre sencillo de Alabama atraviesa sin proponérselo las grandes décadas de la historia de Estados Unidos."),
    329: ("Parque Jurásico", "Aventuras", 7.9, "Un millonario invita a unos científicos a visitar un parque temático poblado por dinosaurios clonados."),
    105: ("Regreso al futuro", "Ciencia ficción", 8.3, "Marty McFly viaja por accidente a 1955 en el DeLorean de su amigo Doc y pone en peligro su propia existencia."),
    98: ("Gladiator", "Acción", 8.2, "Traicionado por el nuevo emperador, el general Máximo se convierte en gladiador para vengar a su familia."),
    120: ("El Señor de los Anillos: La Comunidad del Anillo", "Fantástico", 8.4, "El hobbit Frodo emprende un viaje para destruir el Anillo Único en los fuegos del Monte del Destino."),
    603: ("Matrix", "Ciencia ficción", 8.2, "Un programador descubre que el mundo en que vive es una simulación creada por las máquinas."),
    680: ("Pulp Fiction", "Thriller", 8.5, "Las historias de dos sicarios, un boxeador y una pareja de atracadores se cruzan en Los Ángeles."),
    155: ("El caballero oscuro", "Acción", 8.5, "Batman se enfrenta al Joker, un criminal que quiere sumir Gotham en el caos."),
    27205: ("Origen", "Ciencia ficción", 8.4, "Un ladrón que roba secretos del subconsciente recibe el encargo de implantar una idea en un sueño."),
    157336: ("Interstellar", "Ciencia ficción", 8.4, "Con la Tierra agonizando, un grupo de astronautas cruza un agujero de gusano en busca de un nuevo hogar."),
    862: ("Toy Story", "Animación", 8.0, "Woody, el juguete favorito de Andy, ve peligrar su puesto con la llegada del astronauta Buzz Lightyear."),
    12: ("Buscando a Nemo", "Animación", 7.8, "Marlin, un pez payaso, cruza el océano para rescatar a su hijo Nemo, atrapado en la pecera de un dentista."),
    8587: ("El rey león", "Animación", 8.3, "El joven león Simba huye tras la muerte de su padre y debe volver para reclamar su lugar en la sabana."),
    808: ("Shrek", "Animación", 7.7, "Un ogro gruñón acepta rescatar a una princesa para recuperar la tranquilidad de su ciénaga."),
    14160: ("Up", "Animación", 7.9, "Carl, un vendedor de globos viudo, ata miles de globos a su casa para volar hasta Sudamérica."),
    109445: ("Frozen: El reino del hielo", "Animación", 7.3, "La princesa Anna parte en busca de su hermana Elsa, cuyos poderes han congelado el reino de Arendelle."),
    289: ("Casablanca", "Drama", 8.2, "En la Casablanca de la guerra, el dueño de un café recibe la visita de la mujer que le abandonó en París."),
    114: ("Pretty Woman", "Comedia", 7.4, "Un millonario contrata a una joven de Hollywood Boulevard para que le acompañe durante una semana."),
    509: ("Notting Hill", "Comedia", 7.2, "El dueño de una pequeña librería de Londres se enamora de la actriz más famosa del mundo."),
    88: ("Dirty Dancing", "Musical", 7.2, "Verano de 1963: Baby descubre el baile y el amor en un hotel de vacaciones de las montañas Catskill."),
    251: ("Ghost: Más allá del amor", "Romance", 7.4, "Asesinado en un atraco, Sam se queda entre los vivos para proteger a su novia Molly."),
    744: ("Top Gun", "Acción", 7.0, "Maverick, un piloto temerario, ingresa en la escuela de élite de la Marina de Estados Unidos."),
    562: ("Jungla de cristal", "Acción", 7.8, "El policía John McClane se enfrenta solo a un grupo de terroristas en un rascacielos de Los Ángeles."),
    280: ("Terminator 2: El juicio final", "Acción", 8.1, "Un cíborg del futuro debe proteger al joven John Connor de un modelo mucho más avanzado."),
    348: ("Alien, el octavo pasajero", "Terror", 8.1, "La tripulación del carguero Nostromo responde a una señal y sube a bordo una criatura letal."),
    85: ("En busca del arca perdida", "Aventuras", 7.9, "El arqueólogo Indiana Jones compite con los nazis por encontrar el Arca de la Alianza."),
    601: ("E.T., el extraterrestre", "Ciencia ficción", 7.5, "Un niño esconde en su casa a un extraterrestre que se ha quedado en la Tierra."),
    578: ("Tiburón", "Thriller", 7.7, "Un enorme tiburón blanco siembra el pánico en las playas de la isla de Amity en pleno verano."),
    278: ("Cadena perpetua", "Drama", 8.7, "Condenado por un crimen que no cometió, Andy Dufresne pasa décadas en la prisión de Shawshank."),
    857: ("Salvar al soldado Ryan", "Bélico", 8.2, "Tras el desembarco de Normandía, un capitán y sus hombres buscan a un paracaidista cuyos hermanos han muerto."),
    197: ("Braveheart", "Histórico", 7.9, "William Wallace encabeza la rebelión de los escoceses contra el rey Eduardo I de Inglaterra."),
    1366: ("Rocky", "Drama", 7.7, "Un boxeador de Filadelfia sin futuro recibe la oportunidad de disputar el título mundial."),
    13223: ("Gran Torino", "Drama", 7.8, "Un veterano de Corea viudo y cascarrabias acaba protegiendo a sus vecinos hmong de una banda."),
    70: ("Million Dollar Baby", "Drama", 8.0, "Un viejo entrenador de boxeo acepta a regañadientes entrenar a una camarera decidida a triunfar."),
    33: ("Sin perdón", "Western", 7.9, "Un pistolero retirado acepta un último trabajo para cobrar la recompensa por dos vaqueros."),
    429: ("El bueno, el feo y el malo", "Western", 8.5, "Tres pistoleros se disputan un tesoro de oro confederado en plena guerra de Secesión."),
    335: ("Hasta que llegó su hora", "Western", 8.3, "Un misterioso hombre de la armónica protege a una viuda de los pistoleros de un magnate del ferrocarril."),
    391: ("Por un puñado de dólares", "Western", 7.9, "Un forastero llega a un pueblo de la frontera dominado por dos familias rivales."),
    938: ("La muerte tenía un precio", "Western", 8.0, "Dos cazarrecompensas unen fuerzas para atrapar al bandido El Indio."),
    301: ("Río Bravo", "Western", 8.0, "El sheriff Chance retiene a un asesino en la cárcel mientras el hermano del preso asedia el pueblo."),
    3114: ("Centauros del desierto", "Western", 7.8, "Ethan Edwards dedica años a buscar a su sobrina, raptada por los comanches."),
    288: ("Solo ante el peligro", "Western", 8.0, "El día de su boda, el sheriff Will Kane espera solo la llegada de un forajido que juró matarle."),
    671: ("Harry Potter y la piedra filosofal", "Fantástico", 7.9, "El día que cumple once años, Harry descubre que es un mago y entra en el colegio Hogwarts."),
    11631: ("Mamma Mia!", "Musical", 6.9, "En una isla griega, Sophie invita a su boda a los tres hombres que podrían ser su padre."),
    350: ("El diablo viste de Prada", "Comedia", 7.4, "Una joven periodista consigue trabajo como asistente de la temible directora de una revista de moda."),
    634: ("El diario de Bridget Jones", "Comedia", 6.8, "Bridget, treintañera londinense, decide poner orden en su vida y empieza un diario."),
    508: ("Love Actually", "Comedia", 7.1, "Diez historias de amor se entrelazan en Londres durante las semanas anteriores a la Navidad."),
    788: ("Señora Doubtfire", "Comedia", 7.1, "Un padre divorciado se disfraza de niñera escocesa para poder estar con sus hijos."),
    771: ("Solo en casa", "Comedia", 7.4, "Olvidado por su familia en Navidad, Kevin defiende su casa de dos ladrones."),
    620: ("Cazafantasmas", "Comedia", 7.4, "Tres parapsicólogos despedidos montan en Nueva York un negocio para cazar fantasmas."),
    9340: ("Los Goonies", "Aventuras", 7.6, "Un grupo de niños encuentra el mapa del tesoro del pirata Willy el Tuerto."),
    607: ("Men in Black", "Ciencia ficción", 7.2, "Un policía de Nueva York es reclutado por una agencia secreta que vigila a los extraterrestres."),
    602: ("Independence Day", "Ciencia ficción", 6.9, "Unas gigantescas naves extraterrestres se sitúan sobre las grandes ciudades de la Tierra."),
    95: ("Armageddon", "Acción", 6.8, "Un equipo de perforadores petrolíferos viaja a un asteroide que amenaza con destruir la Tierra."),
    22: ("Piratas del Caribe: La maldición de la Perla Negra", "Aventuras", 7.8, "El herrero Will Turner se alía con el pirata Jack Sparrow para rescatar a Elizabeth."),
    954: ("Misión: Imposible", "Acción", 7.0, "Acusado de traición, el agente Ethan Hunt debe descubrir al verdadero topo de su agencia."),
    1637: ("Speed", "Acción", 7.1, "Un autobús de Los Ángeles explotará si baja de ochenta kilómetros por hora."),
    5503: ("El fugitivo", "Thriller", 7.5, "Condenado por el asesinato de su esposa, el doctor Kimble escapa para buscar al verdadero culpable."),
    8681: ("Venganza", "Acción", 7.4, "Un exagente de la CIA tiene 96 horas para encontrar a su hija, secuestrada en París."),
    161: ("Ocean's Eleven", "Thriller", 7.5, "Danny Ocean reúne a once especialistas para robar tres casinos de Las Vegas en una noche."),
    2501: ("El caso Bourne", "Acción", 7.4, "Un hombre sin memoria rescatado en el Mediterráneo descubre que es un asesino entrenado."),
    36557: ("Casino Royale", "Acción", 7.5, "En su primera misión como 007, James Bond se enfrenta a Le Chiffre en una partida de póquer."),
    745: ("El sexto sentido", "Thriller", 7.9, "Un psicólogo infantil trata a un niño que asegura ver a personas muertas."),
    807: ("Seven", "Thriller", 8.4, "Dos detectives persiguen a un asesino que elige a sus víctimas según los siete pecados capitales."),
    274: ("El silencio de los corderos", "Thriller", 8.3, "Una agente del FBI pide ayuda a Hannibal Lecter para atrapar a un asesino en serie."),
    1422: ("Infiltrados", "Thriller", 8.2, "Un policía infiltrado en la mafia irlandesa y un topo de la mafia en la policía se buscan mutuamente."),
    949: ("Heat", "Thriller", 7.9, "Un detective de Los Ángeles persigue a una banda de atracadores profesionales."),
    101: ("León: El profesional", "Thriller", 8.3, "Un solitario asesino a sueldo acoge a Mathilda, una niña de doce años cuya familia ha sido asesinada."),
    194: ("Amélie", "Comedia", 7.9, "Una camarera de Montmartre decide cambiar en secreto la vida de quienes la rodean."),
    77338: ("Intocable", "Comedia", 8.3, "Un aristócrata tetrapléjico contrata como cuidador a un joven del extrarradio recién salido de prisión."),
    11216: ("Cinema Paradiso", "Drama", 8.4, "Un director de cine recuerda su infancia en un pueblo de Sicilia y su amistad con el proyeccionista."),
    637: ("La vida es bella", "Drama", 8.5, "Un librero judío usa su imaginación para proteger a su hijo en un campo de concentración."),
    581: ("Bailando con lobos", "Western", 7.8, "Destinado a un puesto fronterizo abandonado, un teniente entabla amistad con los sioux."),
    606: ("Memorias de África", "Romance", 7.2, "Karen Blixen dirige una plantación de café en Kenia y se enamora de un cazador."),
    380: ("Rain Man", "Drama", 7.9, "Un vendedor de coches descubre que tiene un hermano autista que ha heredado la fortuna familiar."),
}

# Titles and synopses as TV3 and ETB 1 announce them.
FILMS_CA = {
    1933: ("Els altres", "En una mansió de Jersey aïllada per la boira, la Grace protegeix els fills de la llum mentre espera el marit."),
    1417: ("El laberint del faune", "Espanya, 1944. L'Ofèlia entra en un laberint on un faune li revela que és una princesa d'un regne subterrani."),
    6537: ("L'orfenat", "La Laura torna amb la família a l'orfenat on va créixer; allà el seu fill comença a jugar amb amics invisibles."),
    1913: ("Mar endins", "En Ramón Sampedro fa gairebé trenta anys que és al llit i lluita per decidir sobre la seva pròpia mort."),
    80278: ("L'impossible", "Unes vacances a Tailàndia es converteixen en una lluita per sobreviure quan el tsunami del 2004 arrasa la costa."),
    99: ("Tot sobre la meva mare", "Després de perdre el fill, la Manuela viatja a Barcelona a buscar el pare del noi."),
    11216: ("Cinema Paradiso", "Un director de cinema recorda la infantesa en un poble de Sicília i l'amistat amb el projeccionista."),
    637: ("La vida és bella", "Un llibreter jueu fa servir la imaginació per protegir el seu fill en un camp de concentració."),
    194: ("Amélie", "Una cambrera de Montmartre decideix canviar en secret la vida de la gent que l'envolta."),
    77338: ("Intocable", "Un aristòcrata tetraplègic contracta com a cuidador un jove del extraradi acabat de sortir de la presó."),
}
FILMS_EU = {
    862: ("Toy Story", "Woody Andyren jostailu kuttuna da, Buzz Lightyear astronauta iritsi arte."),
    808: ("Shrek", "Ogro gruñoi batek printzesa bat erreskatatzea onartzen du bere zingira berreskuratzeko."),
    14160: ("Up", "Carl alargunak milaka puxika lotzen dizkio etxeari Hego Amerikaraino hegan egiteko."),
    12: ("Nemo bila", "Marlin pailazo-arraina ozeanoa zeharkatzen du bere seme Nemo erreskatatzeko."),
    8587: ("Errege lehoia", "Simba lehoi gaztea ihes egiten du aita hil ondoren, eta bere tokia berreskuratzera itzuli behar du."),
    109445: ("Frozen: Izotzezko erresuma", "Anna printzesa bere ahizpa Elsaren bila abiatzen da, Arendelle izoztu ondoren."),
}


# --- items: what a slot airs ---------------------------------------------------------------------

class Programme:
    def __init__(self, title, subtype, text, subtitle=None, kind="programme", rate=None, backdrop=False):
        self.title, self.subtype, self.text, self.subtitle = title, subtype, text, subtitle
        self.kind, self.rate, self.backdrop = kind, rate, backdrop

    def render(self, state, channel):
        sid = show_id(self.title)
        return {
            "type": self.kind, "showID": sid, "subtype": self.subtype, "title": self.title,
            "subtitle": self.subtitle, "text": self.text, "rate": self.rate,
            "backdrop": BACKDROP_BASE + sid + ".jpg" if self.backdrop else None,
        }


class Series:
    """A series whose episodes advance at each airing on a channel. `style` is how the API writes
    the numbering: "short" (T3 E12 · Title), "long" (Temporada 3, Episodio 12: Title), "daily"
    (Capítulo 452), "daily_ca" (Capítol 1234) or "plain" (the episode title alone)."""

    def __init__(self, title, subtype, text, season, episode, per_season, episodes, style="short",
                 kind="series", rate=None, backdrop=False):
        self.title, self.subtype, self.text = title, subtype, text
        self.season, self.episode, self.per_season = season, episode, per_season
        self.episodes, self.style, self.kind, self.rate, self.backdrop = episodes, style, kind, rate, backdrop

    def render(self, state, channel):
        key = (channel, self.title)
        count = state.get(key, 0)
        state[key] = count + 1
        season, episode = self.season, self.episode + count
        while self.per_season and episode > self.per_season:
            episode -= self.per_season
            season += 1
        name = self.episodes[(self.episode + count - 1) % len(self.episodes)] if self.episodes else None
        subtitle = {
            "short": f"T{season} E{episode} · {name}" if name else f"T{season} E{episode}",
            "long": f"Temporada {season}, Episodio {episode}: {name}" if name else f"Temporada {season}, Episodio {episode}",
            "daily": f"Capítulo {episode}",
            "daily_ca": f"Capítol {episode}",
            "plain": name,
        }[self.style]
        sid = show_id(self.title)
        return {
            "type": self.kind, "showID": sid, "subtype": self.subtype, "title": self.title,
            "subtitle": subtitle, "text": self.text, "rate": self.rate,
            "backdrop": BACKDROP_BASE + sid + ".jpg" if self.backdrop else None,
        }


class Film:
    """The next film of a channel's pool."""

    def __init__(self, pool, language="es"):
        self.pool, self.language = pool, language

    def render(self, state, channel):
        key = (channel, "films", id(self.pool))
        count = state.get(key, 0)
        state[key] = count + 1
        tmdb = self.pool[count % len(self.pool)]
        title, genre, rate, text = FILMS[tmdb]
        if self.language == "ca" and tmdb in FILMS_CA:
            title, text = FILMS_CA[tmdb]
        if self.language == "eu" and tmdb in FILMS_EU:
            title, text = FILMS_EU[tmdb]
        return {
            "type": "movie", "showID": str(tmdb), "subtype": genre, "title": title,
            "subtitle": None, "text": text, "rate": rate,
            "backdrop": f"{BACKDROP_BASE}movie-{tmdb}.jpg",
        }


def news(title, text, subtype="Noticias"):
    return Programme(title, subtype, text)


def doc(title, subtype, text, subtitle=None, rate=None):
    return Programme(title, subtype, text, subtitle=subtitle, kind="documentary", rate=rate)


def kids(title, text, season, episode, per_season, episodes, style="short"):
    return Series(title, "Infantil", text, season, episode, per_season, episodes, style=style, kind="programme")


def sport(title, subtitle, text):
    return Programme(title, "Deportes", text, subtitle=subtitle)


# --- shared programmes ---------------------------------------------------------------------------

TD_MATINAL = news("Telediario Matinal", "Las noticias de primera hora, con la actualidad nacional e internacional y el tiempo.")
TD1 = news("Telediario 1", "Informativo de mediodía con la actualidad nacional, internacional, la economía y los deportes.")
TD2 = news("Telediario 2", "El informativo de la noche: las noticias del día, análisis, deportes y el tiempo.")
TD_FDS = news("Telediario fin de semana", "Las noticias del fin de semana, con la información deportiva y el tiempo.")
EL_TIEMPO = Programme("El tiempo", "Meteorología", "La previsión meteorológica para toda España.")
NOCHE_24H = news("La noche en 24h", "Análisis y debate de la actualidad del día con analistas y corresponsales.")
NOTICIAS_24H = news("Noticias 24 horas", "Las últimas noticias, conexiones en directo y el tiempo, cada hora.")
TELETIENDA = Programme("Teletienda", "Televenta", "Presentación de productos para el hogar, la salud y el bienestar.")
MINUTOS_MUSICALES = Programme("Minutos musicales", "Música", "Videoclips y actuaciones musicales.")

CUENTAME = Series(
    "Cuéntame cómo pasó", "Drama",
    "Los Alcántara viven los cambios de la España de la Transición desde su casa del barrio de San Genaro.",
    3, 9, 25,
    ["Atrapados en el ascensor", "La boda de Inés", "El primer voto", "Aires de cambio", "Vuelve el hijo pródigo",
     "La huelga", "Noche de reyes", "Días de radio", "El precio de la libertad", "Sagrada familia",
     "La dimisión", "Cosas de la edad"],
    style="short", rate=7.9, backdrop=True)
LA_PROMESA = Series(
    "La Promesa", "Drama",
    "Principios del siglo XX. Jana entra a servir en el palacio de los marqueses de Luján para descubrir quién atacó a su familia.",
    1, 712, 0, [], style="daily", rate=7.2, backdrop=True)
VALLE_SALVAJE = Series(
    "Valle Salvaje", "Drama",
    "Siglo XVIII. Adriana llega con sus hermanas al Valle Salvaje, donde los duques gobiernan entre secretos.",
    1, 298, 0, [], style="daily", rate=6.8)
SUENOS = Series(
    "Sueños de libertad", "Drama",
    "Años cincuenta. Begoña trabaja en la fábrica de perfumes de los De la Reina mientras intenta escapar de un matrimonio infeliz.",
    1, 415, 0, [], style="daily", rate=6.9)

# Film pools by channel character.
SPANISH_FILMS = [1913, 1933, 219, 26428, 33273, 6537, 99, 80278, 64, 25376, 255343, 1417, 258230, 63311]
CLASSICS = [289, 288, 301, 3114, 606, 11216, 637, 581]
BLOCKBUSTERS = [597, 329, 105, 98, 120, 603, 155, 27205, 157336, 22, 671, 602, 95, 85, 601]
ACTION = [562, 280, 744, 954, 1637, 5503, 8681, 161, 2501, 36557, 98, 949, 101, 95]
THRILLERS = [807, 274, 1422, 745, 680, 411088, 33273, 8329, 619264, 578, 348, 265195]
ROMCOMS = [114, 509, 88, 251, 11631, 350, 634, 508, 788, 194, 606]
FAMILY = [862, 12, 8587, 808, 14160, 109445, 771, 9340, 620, 607, 788, 601]
WESTERNS = [33, 429, 335, 391, 938, 301, 3114, 288, 581]
DRAMAS = [238, 13, 278, 857, 197, 1366, 13223, 70, 380, 77338, 637]
TV3_FILMS = [1933, 1417, 6537, 1913, 80278, 99, 11216, 637, 194, 77338]
ETB_FILMS = [862, 808, 14160, 12, 8587, 109445]


def weekday(day):
    return day < 5


# --- schedules: channel id -> function(day index 0=Monday) -> [(HH:MM, item)] -----------------------

def la1(day):
    if weekday(day):
        night = (
            [("21:55", Programme("La Revuelta", "Entretenimiento", "David Broncano recibe cada noche a un invitado en un programa de humor en directo.", backdrop=True)),
             ("23:10", CUENTAME), ("24:25", Film(SPANISH_FILMS))]
            if day < 4 else
            [("21:55", Programme("Bake Off: Famosos al horno", "Concurso", "Famosos compiten en la cocina con tartas, panes y postres bajo la mirada del jurado.")),
             ("24:00", Film(BLOCKBUSTERS))])
        return [
            ("06:00", TD_MATINAL),
            ("08:55", Programme("La hora de La 1", "Magacín", "Actualidad, política y entrevistas para empezar la mañana.")),
            ("11:45", Programme("Mañaneros 360", "Magacín", "Actualidad, sucesos, consumo y entretenimiento en directo.")),
            ("14:00", news("Informativo territorial", "Las noticias de cada comunidad autónoma.", "Informativo")),
            ("14:30", Programme("Corazón", "Crónica social", "La actualidad de la crónica social y el mundo de la moda.")),
            ("15:00", TD1), ("15:55", EL_TIEMPO),
            ("16:05", VALLE_SALVAJE), ("17:00", LA_PROMESA),
            ("18:00", Programme("El cazador", "Concurso", "Cuatro concursantes se enfrentan a los cazadores, grandes expertos en preguntas de cultura general.")),
            ("20:00", doc("Aquí la Tierra", "Divulgativo", "El tiempo, la naturaleza y la vida en el campo, con Jacob Petrus.")),
            ("21:00", TD2),
        ] + night + [("26:10", NOCHE_24H)]
    return [
        ("06:00", NOTICIAS_24H),
        ("08:00", kids("Los Lunnis", "Los Lunnis presentan dibujos animados, canciones y juegos para los más pequeños.", 2, 3, 26, ["La Luna se esconde", "Lucrecia canta", "El cumpleaños de Lulila"], style="plain")),
        ("09:45", Programme("Comando al sol", "Reportajes", "Reporteros que recorren España para contar sus planes de ocio.")),
        ("11:00", Programme("España directo", "Reportajes", "Conexiones en directo con las historias y fiestas de pueblos y ciudades.")),
        ("13:00", Programme("Arusitys", "Magacín", "Humor y actualidad en clave de fin de semana.")),
        ("15:00", TD_FDS), ("15:50", EL_TIEMPO),
        ("16:00", Film(FAMILY)),
        ("18:00", Programme("Cine de barrio", "Cine", "Una película española clásica y una tertulia con sus protagonistas.") if day == 5
         else Programme("Lo siguiente", "Entretenimiento", "Humor, entrevistas y curiosidades de la actualidad.")),
        ("21:00", TD_FDS),
        ("22:00", Film(BLOCKBUSTERS)),
        ("24:30", Film(THRILLERS)),
        ("26:30", NOCHE_24H),
    ]


def la2(day):
    rows = [
        ("06:00", TELETIENDA),
        ("06:30", Programme("That's English", "Educativo", "Curso de inglés para adultos.")),
        ("07:00", Programme("La aventura del saber", "Educativo", "Reportajes educativos sobre ciencia, historia y lengua.")),
        ("09:00", Programme("Aquí hay trabajo", "Empleo", "Ofertas de empleo, formación y emprendimiento.")),
        ("09:30", doc("Grandes documentales", "Naturaleza", "Los mejores documentales sobre la vida salvaje del planeta.",
                      ["La sabana africana", "Océanos: el mundo azul", "Los últimos lobos", "Madagascar, la isla perdida",
                       "El reino del jaguar", "Montañas de Europa", "Los reyes del Ártico"][day])),
        ("11:30", doc("Las rutas D'Ambrosio", "Viajes", "Un recorrido por la gastronomía y los paisajes de España.")),
        ("12:30", doc("Somos documentales", "Historia", "Documentales sobre historia, ciencia y sociedad.")),
        ("14:00", doc("Grandes documentales", "Naturaleza", "Los mejores documentales sobre la vida salvaje del planeta.",
                      ["Guepardos", "El río Amazonas", "Bosques del norte", "La Antártida", "Desiertos vivos", "Islas Galápagos", "El Himalaya"][day])),
        ("15:30", Programme("Saber y ganar", "Concurso", "El concurso de cultura general más veterano de la televisión, presentado por Jordi Hurtado.", rate=8.1)),
        ("16:15", doc("Documenta2", "Sociedad", "Documentales de actualidad y sociedad.")),
        ("17:15", doc("Grandes documentales", "Naturaleza", "Los mejores documentales sobre la vida salvaje del planeta.",
                      ["La vida en los arrecifes", "Tigres de Bengala", "La gran migración", "Volcanes", "Los osos pardos", "Costa Rica salvaje", "El desierto de Namib"][day])),
        ("19:00", Programme("El escarabajo verde", "Medio ambiente", "Reportajes sobre medio ambiente y sostenibilidad.")),
        ("19:30", doc("Cachitos de hierro y cromo", "Música", "Un repaso con humor al archivo musical de TVE.")),
        ("20:30", news("La 2 Noticias", "El informativo de La 2, con la actualidad desde otro punto de vista.")),
    ]
    prime = {
        0: [("21:30", Programme("Días de cine clásico", "Cine", "Presentación y emisión de un clásico del cine.")), ("21:40", Film(CLASSICS))],
        1: [("21:30", Programme("Versión española", "Cine", "Presentación de una película española y coloquio con su equipo.")), ("21:45", Film(SPANISH_FILMS))],
        2: [("21:30", doc("Documentos TV", "Reportajes", "Reportajes de investigación sobre la actualidad.")), ("22:30", Film(SPANISH_FILMS))],
        3: [("21:30", doc("Imprescindibles", "Biografías", "Retratos de figuras de la cultura española.")), ("22:30", Film(CLASSICS))],
        4: [("21:30", Programme("Días de cine", "Cine", "La actualidad cinematográfica: estrenos, entrevistas y críticas.")), ("22:30", Film(SPANISH_FILMS))],
        5: [("21:30", doc("Documaster", "Historia", "Grandes producciones documentales internacionales.")), ("22:30", Film(CLASSICS))],
        6: [("21:30", doc("Página Dos", "Literatura", "Entrevistas y reportajes sobre libros y escritores.")), ("22:00", Film(SPANISH_FILMS))],
    }[day]
    return rows + prime + [("24:40", doc("Conciertos de Radio 3", "Música", "Actuaciones en directo de grupos y solistas.")),
                           ("25:40", TELETIENDA)]


def antena3(day):
    if weekday(day):
        night = (
            [("21:45", Programme("El Hormiguero", "Entretenimiento", "Pablo Motos, sus colaboradores y las hormigas Trancas y Barrancas reciben cada noche a un invitado.", rate=6.5, backdrop=True)),
             ("22:50", Series("Una nueva vida", "Drama", "Seyran y Ferit se ven obligados a casarse en una familia poderosa de Estambul.", 2, 31, 60, [], style="long"))]
            if day < 4 else
            [("21:45", Programme("El Hormiguero", "Entretenimiento", "Pablo Motos, sus colaboradores y las hormigas Trancas y Barrancas reciben cada noche a un invitado.", rate=6.5, backdrop=True)),
             ("22:50", Film(BLOCKBUSTERS))])
        return [
            ("06:00", Programme("Noticias de la mañana", "Noticias", "Las primeras noticias del día.")),
            ("08:55", Programme("Espejo público", "Magacín", "Actualidad política, sucesos y debate con Susanna Griso.")),
            ("12:25", Programme("Cocina abierta de Karlos Arguiñano", "Cocina", "Karlos Arguiñano prepara recetas sencillas, sanas y económicas.")),
            ("13:00", Programme("La ruleta de la suerte", "Concurso", "Jorge Fernández presenta el concurso de paneles y gajos de la ruleta.", rate=6.8)),
            ("15:00", news("Antena 3 Noticias 1", "El informativo de mediodía de Antena 3.")),
            ("15:45", Programme("Deportes", "Deportes", "La información deportiva del día.")),
            ("15:55", Programme("Roberto Leal: El tiempo", "Meteorología", "La previsión del tiempo.")),
            ("16:00", SUENOS),
            ("17:00", Programme("Y ahora Sonsoles", "Magacín", "Sonsoles Ónega repasa la actualidad y la crónica social de la tarde.")),
            ("20:00", Programme("Pasapalabra", "Concurso", "Roberto Leal conduce el concurso de palabras que culmina en el rosco.", rate=7.6, backdrop=True)),
            ("21:00", news("Antena 3 Noticias 2", "El informativo de la noche de Antena 3.")),
        ] + night + [("25:00", Programme("Live Casino", "Juegos", "Juegos de casino en directo.")),
                     ("26:30", MINUTOS_MUSICALES)]
    return [
        ("06:00", MINUTOS_MUSICALES),
        ("07:00", Programme("Pelopicopata", "Infantil", "Dibujos animados para toda la familia.")),
        ("09:00", Programme("Los más", "Entretenimiento", "Los vídeos más sorprendentes de internet.")),
        ("11:00", Programme("La ruleta de la suerte", "Concurso", "Jorge Fernández presenta el concurso de paneles y gajos de la ruleta.", rate=6.8)),
        ("13:00", Programme("Cocina abierta de Karlos Arguiñano", "Cocina", "Karlos Arguiñano prepara recetas sencillas, sanas y económicas.")),
        ("13:55", Programme("La ruleta de la suerte", "Concurso", "Jorge Fernández presenta el concurso de paneles y gajos de la ruleta.", rate=6.8)),
        ("15:00", news("Antena 3 Noticias fin de semana", "El informativo del fin de semana de Antena 3.")),
        ("15:45", Film(ROMCOMS)),
        ("17:45", Film(FAMILY)),
        ("20:00", Programme("Pasapalabra", "Concurso", "Roberto Leal conduce el concurso de palabras que culmina en el rosco.", rate=7.6)),
        ("21:00", news("Antena 3 Noticias fin de semana", "El informativo del fin de semana de Antena 3.")),
        ("22:00", Programme("La Voz", "Talent show", "Los coaches giran sus sillas en las audiciones a ciegas.") if day == 5 else Film(BLOCKBUSTERS)),
        ("24:45", Film(THRILLERS)),
        ("26:40", MINUTOS_MUSICALES),
    ]


def cuatro(day):
    if weekday(day):
        return [
            ("06:00", Programme("ElDesmarque madrugada", "Deportes", "La información deportiva de la noche.")),
            ("07:00", Programme("¡Toma salami!", "Entretenimiento", "Los mejores momentos de la televisión.")),
            ("07:45", Programme("Cuatro al día", "Noticias", "Actualidad de primera hora.")),
            ("09:00", Programme("Callejeros viajeros", "Viajes", "Españoles que viven en ciudades de todo el mundo enseñan su día a día.")),
            ("11:00", Programme("En boca de todos", "Magacín", "Actualidad y debate con Nacho Abad.")),
            ("14:00", news("Noticias Cuatro", "El informativo de mediodía de Cuatro.")),
            ("14:45", Programme("ElDesmarque Cuatro", "Deportes", "La actualidad deportiva del día.")),
            ("15:30", Programme("Todo es mentira", "Humor", "Risto Mejide analiza la actualidad con humor.")),
            ("17:00", Programme("Tiempo al tiempo", "Magacín", "Entrevistas, reportajes y actualidad de la tarde.")),
            ("20:00", Programme("Cuatro al día", "Noticias", "La actualidad del día con Joaquín Prat.")),
            ("21:30", Programme("First Dates", "Citas", "Carlos Sobera recibe en su restaurante a solteros que buscan pareja.", rate=6.1, backdrop=True)),
            ("22:50", Programme("Horizonte", "Reportajes", "Iker Jiménez investiga los temas de actualidad.") if day == 3 else Film(ACTION)),
            ("25:15", Programme("The Game Show", "Concurso", "Concurso nocturno de preguntas.")),
            ("26:30", Programme("La tienda en casa", "Televenta", "Productos para el hogar.")),
        ]
    return [
        ("06:00", Programme("La tienda en casa", "Televenta", "Productos para el hogar.")),
        ("07:00", Programme("¡Toma salami!", "Entretenimiento", "Los mejores momentos de la televisión.")),
        ("08:00", Series("El encantador de perros", "Documental", "César Millán ayuda a familias con problemas de conducta de sus perros.", 4, 1, 20, ["Perros ansiosos", "El chihuahua celoso", "Una manada en casa"], style="short", kind="documentary")),
        ("11:00", Programme("Viajeros Cuatro", "Viajes", "Destinos de todo el mundo contados por españoles que viven allí.")),
        ("14:00", news("Noticias Cuatro", "El informativo del fin de semana de Cuatro.")),
        ("14:45", Programme("ElDesmarque Cuatro", "Deportes", "La actualidad deportiva del fin de semana.")),
        ("15:30", Film(ACTION)),
        ("17:30", Film(BLOCKBUSTERS)),
        ("20:00", news("Noticias Cuatro", "El informativo de la noche del fin de semana.")),
        ("21:00", Programme("Volando voy", "Reportajes", "Jesús Calleja aterriza en pueblos de España para ayudar a sus vecinos.")),
        ("22:00", Programme("Cuarto Milenio", "Misterio", "Iker Jiménez investiga enigmas, misterios y fenómenos sin explicar.", rate=7.4, backdrop=True) if day == 6
         else Film(ACTION)),
        ("25:00", Programme("The Game Show", "Concurso", "Concurso nocturno de preguntas.")),
        ("26:30", Programme("La tienda en casa", "Televenta", "Productos para el hogar.")),
    ]


def telecinco(day):
    if weekday(day):
        prime = {0: Programme("Gran Hermano", "Reality", "La gala semanal con las nominaciones de la casa.", backdrop=True),
                 1: Series("Entre tierras", "Drama", "En el campo de Almería, María vuelve al invernadero familiar tras años lejos.", 1, 7, 13, ["Cosecha amarga", "La tormenta", "Una deuda pendiente"], style="long"),
                 2: Programme("¡De viernes!", "Corazón", "Entrevistas y exclusivas de la crónica social."),
                 3: Programme("Gran Hermano: Límite 48 horas", "Reality", "Debate sobre lo que ocurre en la casa de Gran Hermano."),
                 4: Programme("¡De viernes!", "Corazón", "Entrevistas y exclusivas de la crónica social.")}[day]
        return [
            ("06:00", Programme("Informativos Telecinco matinal", "Noticias", "Las primeras noticias del día.")),
            ("08:55", Programme("La mirada crítica", "Magacín", "Ana Terradillos analiza la actualidad política.")),
            ("10:30", Programme("El programa de Ana Rosa", "Magacín", "Actualidad, sucesos y crónica social con Ana Rosa Quintana.")),
            ("15:00", news("Informativos Telecinco 15:00", "El informativo de mediodía de Telecinco.")),
            ("15:35", Programme("ElDesmarque Telecinco", "Deportes", "La información deportiva.")),
            ("15:45", Programme("TardeAR", "Magacín", "Crónica social y actualidad de la tarde.")),
            ("18:15", Programme("El diario de Jorge", "Testimonios", "Jorge Javier Vázquez reúne a personas que quieren contar su historia.")),
            ("20:00", Programme("Reacciona", "Concurso", "Concurso de preguntas y velocidad de reacción.")),
            ("21:00", news("Informativos Telecinco 21:00", "El informativo de la noche de Telecinco.")),
            ("21:45", Programme("La isla de las tentaciones", "Reality", "Cinco parejas ponen a prueba su amor en una isla paradisíaca.") if day == 3 else
             Programme("Agárrate al sillón", "Concurso", "Concurso de preguntas con un sillón que puede expulsar al concursante.")),
            ("22:50", prime),
            ("25:30", Programme("Casino Gran Madrid Online Show", "Juegos", "Póquer y ruleta en directo.")),
            ("27:00", MINUTOS_MUSICALES),
        ]
    return [
        ("06:00", MINUTOS_MUSICALES),
        ("07:00", Programme("I love TV", "Entretenimiento", "Lo mejor de la televisión.")),
        ("08:00", Programme("Fiesta", "Magacín", "Crónica social del fin de semana.") if day == 6 else Programme("Vamos a ver", "Magacín", "Actualidad del fin de semana.")),
        ("15:00", news("Informativos Telecinco fin de semana", "El informativo del fin de semana de Telecinco.")),
        ("15:40", Film(ROMCOMS)),
        ("17:45", Film(FAMILY)),
        ("20:00", Programme("Reacciona", "Concurso", "Concurso de preguntas y velocidad de reacción.")),
        ("21:00", news("Informativos Telecinco fin de semana", "El informativo del fin de semana de Telecinco.")),
        ("22:00", Programme("Gran Hermano: El debate", "Reality", "Debate sobre la convivencia en la casa.") if day == 6 else Film(BLOCKBUSTERS)),
        ("25:15", Programme("Casino Gran Madrid Online Show", "Juegos", "Póquer y ruleta en directo.")),
        ("27:00", MINUTOS_MUSICALES),
    ]


def lasexta(day):
    if weekday(day):
        prime = {0: Programme("El intermedio", "Humor", "El Gran Wyoming repasa la actualidad con humor.", rate=7.0),
                 1: Programme("El intermedio", "Humor", "El Gran Wyoming repasa la actualidad con humor.", rate=7.0),
                 2: Programme("El intermedio", "Humor", "El Gran Wyoming repasa la actualidad con humor.", rate=7.0),
                 3: Programme("El intermedio", "Humor", "El Gran Wyoming repasa la actualidad con humor.", rate=7.0),
                 4: Programme("laSexta Columna", "Reportajes", "Reportaje de investigación sobre un tema de actualidad.")}[day]
        late = Programme("Equipo de investigación", "Reportajes", "Glòria Serra investiga a fondo un tema de actualidad.") if day in (0, 4) else Film(THRILLERS)
        return [
            ("06:00", Programme("Venta Prime", "Televenta", "Productos para el hogar.")),
            ("07:00", Programme("Aruser@s", "Magacín", "Alfonso Arús repasa la actualidad con humor.")),
            ("11:00", Programme("Al rojo vivo", "Debate", "Antonio García Ferreras analiza la actualidad política.")),
            ("14:00", news("laSexta Noticias 14h", "El informativo de mediodía de laSexta.")),
            ("14:30", Programme("Jugones", "Deportes", "La actualidad deportiva con Josep Pedrerol.")),
            ("15:00", Programme("laSexta Meteo", "Meteorología", "La previsión del tiempo.")),
            ("15:45", Programme("Zapeando", "Humor", "Humor y actualidad televisiva.")),
            ("17:15", Programme("Más vale tarde", "Magacín", "Actualidad de la tarde con Iñaki López y Cristina Pardo.")),
            ("20:00", news("laSexta Noticias 20h", "El informativo de la noche de laSexta.")),
            ("21:00", Programme("laSexta Deportes", "Deportes", "La información deportiva.")),
            ("21:30", prime),
            ("22:30", late),
            ("25:00", Programme("Pokerstars", "Juegos", "Póquer en directo.")),
            ("26:00", Programme("Venta Prime", "Televenta", "Productos para el hogar.")),
        ]
    return [
        ("06:00", Programme("Venta Prime", "Televenta", "Productos para el hogar.")),
        ("07:30", Programme("Crímenes imperfectos", "Sucesos", "Casos reales resueltos por la ciencia forense.")),
        ("10:00", Programme("Zapeando", "Humor", "Humor y actualidad televisiva.")),
        ("11:30", Programme("laSexta Xplica", "Debate", "Debate sobre los temas de la semana.") if day == 5 else Programme("Al rojo vivo", "Debate", "Actualidad política del domingo.")),
        ("14:00", news("laSexta Noticias 14h", "El informativo de mediodía de laSexta.")),
        ("15:00", Programme("laSexta Meteo", "Meteorología", "La previsión del tiempo.")),
        ("15:30", Film(ACTION)),
        ("17:30", Film(THRILLERS)),
        ("20:00", news("laSexta Noticias 20h", "El informativo de la noche de laSexta.")),
        ("21:30", Programme("Lo de Évole", "Entrevistas", "Jordi Évole entrevista a protagonistas de la actualidad.") if day == 6 else Programme("laSexta Xplica", "Debate", "Debate sobre los temas de la semana.")),
        ("23:00", Programme("Salvados", "Reportajes", "Reportajes de actualidad.") if day == 6 else Film(ACTION)),
        ("25:00", Programme("Pokerstars", "Juegos", "Póquer en directo.")),
        ("26:00", Programme("Venta Prime", "Televenta", "Productos para el hogar.")),
    ]


def canal24h(day):
    rows = []
    for hour in range(6, 30):
        hhmm = f"{hour:02d}:00"
        if hour == 15:
            rows.append((hhmm, TD1))
        elif hour == 21:
            rows.append((hhmm, TD2))
        elif hour == 22:
            rows.append((hhmm, NOCHE_24H))
        elif hour == 23:
            continue
        elif hour == 10 and weekday(day):
            rows.append((hhmm, Programme("La tarde en 24h: Economía", "Economía", "Mercados, empresas y economía doméstica.")))
        elif hour == 12 and not weekday(day):
            rows.append((hhmm, doc("Informe semanal", "Reportajes", "Reportajes sobre la actualidad de la semana.")))
        elif hour == 18:
            rows.append((hhmm, Programme("La tarde en 24h", "Informativo", "Análisis de la actualidad de la tarde.")))
        elif hour == 19:
            continue
        else:
            rows.append((hhmm, NOTICIAS_24H))
        if hour == 13:
            rows.append(("13:55", EL_TIEMPO))
    return rows


CLAN_SHOWS = [
    ("Peppa Pig", "Peppa y su familia viven aventuras cotidianas llenas de charcos de barro.", 8, ["Charcos de barro", "El cumpleaños de George", "Día de playa", "La bicicleta nueva", "El huevo de pascua", "La casa del árbol"]),
    ("Bluey", "Bluey, una perrita de seis años, convierte cada día en un juego con su familia.", 3, ["Oficina de correos", "Tienda de mascotas", "La piscina", "Camping", "Sombras", "El mercado"]),
    ("La Patrulla Canina", "Ryder y sus cachorros rescatistas protegen Bahía Aventura.", 10, ["Los cachorros salvan el tren", "Rescate en la montaña", "Los cachorros y el pulpo", "Una tortuga en apuros"]),
    ("Pocoyó", "Pocoyó descubre el mundo con sus amigos Pato, Elly y Loula.", 4, ["¡A dormir!", "El gran misterio", "La lluvia", "Baile de disfraces"]),
    ("Masha y el oso", "Masha, una niña traviesa, no deja en paz a su amigo el oso.", 5, ["La pesca", "Un día de nieve", "Música para dos", "La cena"]),
    ("Bob Esponja", "Bob Esponja y Patricio viven aventuras en Fondo de Bikini.", 13, ["La receta secreta", "Medusas", "El concurso de burbujas", "Calamardo de vacaciones"]),
    ("Ben y Holly", "El pequeño reino de Ben el elfo y la princesa Holly.", 2, ["La varita mágica", "El día de los elfos", "La fiesta del rey"]),
    ("Miraculous: Las aventuras de Ladybug", "Marinette y Adrien protegen París bajo las identidades de Ladybug y Cat Noir.", 5, ["Destrucción", "La emboscada", "El regreso", "Salvaje"]),
]


def cartoons(titles, day, channel_offset):
    rows = []
    hour_slots = []
    minutes = 6 * 60
    index = day * 5 + channel_offset
    while minutes < 22 * 60:
        hour_slots.append(f"{minutes // 60:02d}:{minutes % 60:02d}")
        minutes += 30 if index % 3 else 45
        index += 1
    for position, hhmm in enumerate(hour_slots):
        title, text, season, names = titles[(position + day) % len(titles)]
        rows.append((hhmm, kids(title, text, season, 1, 52, names, style="short" if position % 2 else "long")))
    return rows


def clan(day):
    return cartoons(CLAN_SHOWS, day, 0) + [
        ("22:00", Film(FAMILY)),
        ("24:00", kids("Pocoyó", "Pocoyó descubre el mundo con sus amigos Pato, Elly y Loula.", 4, 1, 52, ["¡A dormir!", "El gran misterio", "La lluvia", "Baile de disfraces"], style="plain")),
        ("25:00", kids("Los Lunnis", "Canciones y cuentos para dormir.", 2, 1, 26, ["Nanas de la Luna", "Buenas noches, Lunnis"], style="plain")),
    ]


BOING_SHOWS = [
    ("Doraemon", "El gato cósmico Doraemon ayuda a Nobita con los inventos de su bolsillo mágico.", 1, ["El copiador de voces", "La máquina del tiempo", "La puerta mágica", "El gorro de piedra"]),
    ("El asombroso mundo de Gumball", "Gumball y su hermano Darwin viven disparatadas aventuras en Elmore.", 6, ["La apuesta", "El mando", "La excursión", "El espejo"]),
    ("Teen Titans Go!", "Robin, Starfire, Raven, Chico Bestia y Cyborg, superhéroes adolescentes.", 7, ["Pizza", "El libro de Raven", "Día libre", "El cumpleaños"]),
    ("Tom y Jerry", "La eterna persecución del gato Tom y el ratón Jerry.", 2, ["El queso", "La trampa", "Vacaciones", "El perro guardián"]),
    ("Pokémon: Horizontes", "Liko y Roy recorren el mundo Pokémon a bordo de un dirigible.", 1, ["La piedra misteriosa", "El capitán Pikachu", "Una nueva aventura"]),
    ("Looney Tunes", "Bugs Bunny, el Pato Lucas y compañía en sus cortos más divertidos.", 1, ["Conejo de las nieves", "El pato detective", "Carrera loca"]),
]


def boing(day):
    return cartoons(BOING_SHOWS, day, 2) + [
        ("22:00", Film(FAMILY)),
        ("24:00", kids("Doraemon", "El gato cósmico Doraemon ayuda a Nobita con los inventos de su bolsillo mágico.", 1, 1, 52, ["El copiador de voces", "La máquina del tiempo", "La puerta mágica"], style="plain")),
        ("25:00", MINUTOS_MUSICALES),
    ]


TDP_EVENTS = [
    [("Baloncesto: Liga Endesa", "Joventut Badalona - Unicaja"), ("Tenis: ATP 500 Viena", "Primera ronda"), ("Fútbol sala: Primera División", "ElPozo Murcia - Barça")],
    [("Tenis: ATP 500 Viena", "Primera ronda"), ("Balonmano: Liga Asobal", "Bidasoa Irún - Granollers"), ("Fútbol: Liga F", "Levante - Sevilla")],
    [("Tenis: ATP 500 Viena", "Segunda ronda"), ("Fútbol: UEFA Youth League", "Real Madrid - Benfica"), ("Baloncesto: Euroliga", "Valencia Basket - Fenerbahçe")],
    [("Tenis: ATP 500 Viena", "Octavos de final"), ("Baloncesto: Euroliga", "Baskonia - Olympiacos"), ("Balonmano: EHF Champions League", "Barça - Veszprém")],
    [("Tenis: ATP 500 Viena", "Cuartos de final"), ("Fútbol: Liga F", "Barcelona - Real Madrid"), ("Baloncesto: Liga Endesa", "Gran Canaria - Real Madrid")],
    [("Tenis: ATP 500 Viena", "Semifinales"), ("Atletismo: Maratón de Valencia, previa", "Presentación de la prueba"), ("Rugby: Liga División de Honor", "VRAC Valladolid - El Salvador")],
    [("Tenis: ATP 500 Viena", "Final"), ("Motociclismo: Mundial de Superbikes", "Gran Premio de España, Jerez"), ("Fútbol: Liga F", "Atlético de Madrid - Athletic Club")],
]


def teledeporte(day):
    first, second, third = TDP_EVENTS[day]
    return [
        ("06:00", Programme("Teledeporte Conexión Vintage", "Deportes", "Grandes momentos del deporte español del archivo de TVE.")),
        ("09:00", sport("Estudio Estadio", None, "Resumen y análisis de la jornada deportiva.") if day == 6 else
         Programme("Objetivo Igualdad", "Deportes", "El deporte femenino, sus competiciones y sus protagonistas.")),
        ("10:00", sport(first[0], first[1], "Retransmisión en directo.")),
        ("13:00", sport("Tenis: ATP 500 Viena", "Resumen de la jornada", "Los mejores puntos del torneo austriaco.")),
        ("14:00", Programme("Teledeporte Noticias", "Deportes", "La actualidad deportiva.")),
        ("14:30", sport(second[0], second[1], "Retransmisión en directo.")),
        ("17:00", sport("Ciclismo: Clásicas de otoño", "Resumen", "Resumen de las carreras de la temporada.")),
        ("18:00", sport(third[0], third[1], "Retransmisión en directo.")),
        ("20:30", Programme("Teledeporte Noticias", "Deportes", "La actualidad deportiva.")),
        ("21:00", sport("Gol a gol", None, "Los goles de la jornada europea.")),
        ("22:00", sport("Estudio Estadio", None, "Resumen y análisis de la jornada deportiva.") if day == 6 else sport(first[0], "Resumen", "Lo mejor de la retransmisión del día.")),
        ("24:00", sport(second[0], "Diferido", "Retransmisión en diferido.")),
        ("26:00", sport(third[0], "Diferido", "Retransmisión en diferido.")),
        ("28:00", Programme("Teledeporte Conexión Vintage", "Deportes", "Grandes momentos del deporte español del archivo de TVE.")),
    ]


SIMPSONS = Series("Los Simpson", "Animación", "Las aventuras de Homer, Marge, Bart, Lisa y Maggie en Springfield.", 27, 5, 22,
                  ["Los amigos de Bart", "Homer el grande", "La casa-árbol del terror", "El bebé de Marge", "Lisa vegetariana",
                   "Bart el genio", "Homer en el espacio", "El cometa de Bart", "Lisa, la reina del drama", "Marge contra el monorraíl"],
                  style="short", rate=8.0, backdrop=True)
BIG_BANG = Series("The Big Bang Theory", "Comedia", "Sheldon, Leonard y sus amigos científicos conviven con su vecina Penny en Pasadena.", 9, 3, 24,
                  ["La teoría del aniversario", "El experimento de la fiesta", "La hipótesis del viaje", "La reacción del cumpleaños", "La paradoja de la cena"],
                  style="short", rate=7.8)
YOUNG_SHELDON = Series("El joven Sheldon", "Comedia", "La infancia de Sheldon Cooper en el este de Texas.", 3, 10, 21,
                       ["Un bocadillo y un favor", "El club de ciencias", "Una iglesia dividida", "Un gran cerebro"], style="short")
MODERN_FAMILY = Series("Modern Family", "Comedia", "Tres ramas de una familia de Los Ángeles, contadas como un documental.", 5, 12, 24,
                       ["Las vacaciones", "La boda", "El concurso", "El baile de fin de curso"], style="short", rate=7.9)


def neox(day):
    rows = [("06:00", Programme("Neox Kidz", "Infantil", "Dibujos animados por la mañana."))] if not weekday(day) else \
        [("06:00", MINUTOS_MUSICALES), ("07:00", YOUNG_SHELDON), ("07:30", YOUNG_SHELDON)]
    rows += [
        ("09:30", BIG_BANG), ("10:00", BIG_BANG), ("10:30", BIG_BANG), ("11:00", MODERN_FAMILY), ("11:30", MODERN_FAMILY),
        ("12:00", SIMPSONS), ("12:30", SIMPSONS), ("13:00", SIMPSONS), ("13:30", SIMPSONS), ("14:00", SIMPSONS), ("14:30", SIMPSONS),
        ("15:00", SIMPSONS), ("15:30", SIMPSONS), ("16:00", BIG_BANG), ("16:30", BIG_BANG), ("17:00", YOUNG_SHELDON), ("17:30", YOUNG_SHELDON),
        ("18:00", MODERN_FAMILY), ("18:30", MODERN_FAMILY), ("19:00", SIMPSONS), ("19:30", SIMPSONS), ("20:00", SIMPSONS), ("20:30", SIMPSONS),
        ("21:00", SIMPSONS), ("21:30", SIMPSONS), ("22:00", Film(BLOCKBUSTERS)),
        ("24:30", BIG_BANG), ("25:00", BIG_BANG), ("25:30", Programme("Live Casino", "Juegos", "Juegos de casino en directo.")),
        ("27:00", MINUTOS_MUSICALES),
    ]
    return rows


def nova(day):
    tierra = Series("Tierra amarga", "Drama", "Años setenta en la Çukurova turca: la hacienda de los Yaman y sus secretos.", 3, 40, 80, [], style="long")
    hermanos = Series("Hermanos", "Drama", "Cuatro hermanos pierden a sus padres y deben salir adelante en Estambul.", 2, 20, 60, [], style="long")
    return [
        ("06:00", TELETIENDA),
        ("08:00", Programme("Cocina abierta de Karlos Arguiñano", "Cocina", "Recetas sencillas, sanas y económicas.")),
        ("09:00", Series("Amar es para siempre", "Drama", "Historias de amor y vecindad en el Madrid de otra época.", 1, 2801, 0, [], style="daily")),
        ("11:00", Series("Pasión de gavilanes", "Drama", "Los hermanos Reyes llegan a San Marcos para vengar a su hermana.", 1, 100, 0, [], style="daily")),
        ("13:00", Series("Pasión de gavilanes", "Drama", "Los hermanos Reyes llegan a San Marcos para vengar a su hermana.", 1, 101, 0, [], style="daily")),
        ("15:00", hermanos),
        ("17:00", tierra),
        ("19:00", Programme("Decogarden", "Decoración", "Ideas para el jardín y la decoración del hogar.")),
        ("20:00", Film(ROMCOMS)),
        ("22:00", tierra),
        ("24:00", hermanos),
        ("26:00", TELETIENDA),
    ]


def mega(day):
    return [
        ("06:00", Programme("Venta Prime", "Televenta", "Productos para el hogar.")),
        ("08:00", Programme("Crímenes imperfectos", "Sucesos", "Casos reales resueltos por la ciencia forense.")),
        ("11:00", doc("Mitos y leyendas", "Misterio", "Los grandes enigmas de la historia.")),
        ("13:00", doc("Operación rescate", "Reportajes", "Rescates de emergencia en todo el mundo.")),
        ("15:00", Series("Mentes criminales", "Policíaco", "Una unidad del FBI analiza la conducta de los asesinos en serie.", 8, 1, 24,
                         ["El siguiente", "El legado", "Mentes afines", "La espiral"], style="short")),
        ("16:00", Series("Mentes criminales", "Policíaco", "Una unidad del FBI analiza la conducta de los asesinos en serie.", 8, 2, 24,
                         ["El siguiente", "El legado", "Mentes afines", "La espiral"], style="short")),
        ("17:00", doc("Crímenes imperfectos: ricos y famosos", "Sucesos", "Crímenes de la alta sociedad resueltos por la ciencia forense.")),
        ("20:00", doc("Lo que escondo", "Reportajes", "Testimonios de personas con secretos.")),
        ("22:00", Film(ACTION)),
        ("24:00", Programme("El Chiringuito de Jugones", "Deportes", "Josep Pedrerol y sus tertulianos debaten la actualidad del fútbol.", rate=5.9)),
        ("27:00", Programme("Venta Prime", "Televenta", "Productos para el hogar.")),
    ]


def atreseries(day):
    paco = Series("Los hombres de Paco", "Comedia", "Tres policías de barrio poco brillantes resuelven casos a su manera.", 4, 1, 15,
                  ["El secuestro", "Operación caracol", "El topo", "La herencia"], style="long")
    fq = Series("Física o química", "Drama", "Profesores y alumnos del instituto Zurbarán.", 2, 3, 14, ["El examen", "La fiesta", "Secretos"], style="long")
    return [
        ("06:00", Programme("Minutos musicales", "Música", "Videoclips.")),
        ("08:00", paco), ("09:30", paco), ("11:00", fq),
        ("12:30", Series("Velvet", "Drama", "Las galerías Velvet en el Madrid de finales de los cincuenta.", 2, 1, 14, ["El desfile", "La colección"], style="long")),
        ("14:00", Film(DRAMAS)),
        ("16:30", Film(ACTION)),
        ("19:00", Series("Ley y orden: Unidad de víctimas especiales", "Policíaco", "La unidad de Nueva York que investiga delitos sexuales.", 12, 4, 24, ["Bajo sospecha", "El testigo"], style="short")),
        ("20:00", Series("Ley y orden: Unidad de víctimas especiales", "Policíaco", "La unidad de Nueva York que investiga delitos sexuales.", 12, 5, 24, ["Bajo sospecha", "El testigo"], style="short")),
        ("21:00", Film(THRILLERS)),
        ("23:15", Film(DRAMAS)),
        ("25:30", MINUTOS_MUSICALES),
    ]


LQSA = Series("La que se avecina", "Comedia", "Los vecinos de Mirador de Montepinar y sus disparatadas juntas de propietarios.", 7, 3, 13,
              ["Un pijo, un palco y un consultorio de aluminio", "Un bombero, una cobra y un huevo", "Un viaje, una exposición y una caída",
               "Una mudanza, un espía y un ataque de celos", "Un alcalde, un entierro y una berenjena"], style="short", rate=7.3, backdrop=True)
AIDA = Series("Aída", "Comedia", "Aída y su familia en el barrio de Esperanza Sur.", 6, 8, 20, ["Vuelve la abuela", "Chema enamorado", "El bar de Mauricio"], style="short", rate=6.8)


def fdf(day):
    return [("06:00", MINUTOS_MUSICALES), ("07:00", AIDA), ("08:30", AIDA), ("10:00", LQSA), ("11:30", LQSA), ("13:00", LQSA),
            ("14:30", AIDA), ("16:00", LQSA), ("17:30", LQSA), ("19:00", LQSA), ("20:30", LQSA),
            ("22:00", Film(ACTION)), ("24:15", LQSA), ("25:45", MINUTOS_MUSICALES)]


def energy(day):
    ncis = Series("Navy: Investigación criminal", "Policíaco", "Un equipo del servicio de investigación de la Marina resuelve crímenes.", 15, 1, 24,
                  ["Cuenta atrás", "El desertor", "Agente doble", "Fuego cruzado"], style="short")
    chicago = Series("Chicago Fire", "Drama", "Los bomberos y paramédicos del parque 51 de Chicago.", 8, 2, 20, ["Un buen día", "La llamada"], style="short")
    return [
        ("06:00", MINUTOS_MUSICALES),
        ("07:00", doc("El precio de la historia", "Reportajes", "Una casa de empeños de Las Vegas tasa objetos insólitos.")),
        ("09:00", ncis), ("10:00", ncis), ("11:00", ncis), ("12:00", chicago), ("13:00", chicago),
        ("14:00", doc("Control de fronteras: España", "Reportajes", "El trabajo de los agentes en aeropuertos y puertos.")),
        ("16:00", ncis), ("17:00", ncis), ("18:00", chicago), ("19:00", chicago),
        ("20:00", doc("Alerta aeropuerto", "Reportajes", "El día a día de un gran aeropuerto.")),
        ("22:00", Film(ACTION)),
        ("24:00", ncis), ("25:00", MINUTOS_MUSICALES),
    ]


def divinity(day):
    love = Series("Love is in the air", "Romance", "Eda, una florista, acepta un trato con el arquitecto Serkan Bolat.", 1, 30, 60, [], style="long")
    return [
        ("06:00", TELETIENDA),
        ("08:00", doc("Mi casa es la tuya", "Decoración", "Reformas de casas de famosos.")),
        ("10:00", doc("Cazadores de casas", "Reportajes", "Familias que buscan casa en otro país.")),
        ("12:00", love), ("14:00", Programme("Cazamariposas", "Corazón", "Crónica social con Nando Escribano y Nuria Marín.")),
        ("15:00", love),
        ("17:00", Film(ROMCOMS)),
        ("19:00", doc("Vestidas de novia", "Reportajes", "Futuras novias eligen su vestido.")),
        ("21:00", Film(ROMCOMS)),
        ("23:00", love), ("25:00", TELETIENDA),
    ]


def bemad(day):
    return [
        ("06:00", MINUTOS_MUSICALES),
        ("08:00", doc("Pesca radical", "Aventuras", "La tripulación de pesqueros del mar de Bering.")),
        ("10:00", doc("Máquinas increíbles", "Motor", "Grandes máquinas y obras de ingeniería.")),
        ("12:00", doc("Camioneros de hielo", "Aventuras", "Camioneros que cruzan carreteras heladas en Canadá.")),
        ("14:00", doc("Supervivencia extrema", "Aventuras", "Técnicas de supervivencia en lugares remotos.")),
        ("16:00", Film(ACTION)),
        ("18:00", doc("Pesca radical", "Aventuras", "La tripulación de pesqueros del mar de Bering.")),
        ("20:00", Film(THRILLERS)),
        ("22:00", Film(ACTION)),
        ("24:00", Film(THRILLERS)),
        ("26:00", MINUTOS_MUSICALES),
    ]


def dmax(day):
    gold = Series("La fiebre del oro", "Aventuras", "Buscadores de oro en Alaska y el Yukón.", 14, 1, 22,
                  ["Temporada de deshielo", "La gran apuesta", "Sin agua"], style="long", kind="documentary")
    naked = Series("Aventura en pelotas", "Aventuras", "Dos desconocidos sobreviven 21 días desnudos en la naturaleza.", 10, 1, 16,
                   ["La selva", "El desierto"], style="short", kind="documentary")
    return [
        ("06:00", doc("Cazatesoros", "Aventuras", "Buscadores de tesoros en lugares remotos.")),
        ("08:00", doc("Control de carreteras", "Reportajes", "La Guardia Civil de Tráfico en las carreteras españolas.")),
        ("10:00", gold), ("11:00", gold),
        ("12:00", doc("Expedición al pasado", "Historia", "Josh Gates investiga los grandes misterios de la historia.")),
        ("14:00", naked), ("15:00", naked),
        ("16:00", doc("Alaska: la última frontera", "Aventuras", "La familia Kilcher vive en la naturaleza de Alaska.")),
        ("18:00", doc("Control de carreteras", "Reportajes", "La Guardia Civil de Tráfico en las carreteras españolas.")),
        ("20:00", gold), ("21:00", gold),
        ("22:00", doc("Expedición al pasado", "Historia", "Josh Gates investiga los grandes misterios de la historia.")),
        ("24:00", naked), ("25:00", doc("Cazatesoros", "Aventuras", "Buscadores de tesoros en lugares remotos.")),
    ]


def paramount(day):
    walker = Series("Walker, Texas Ranger", "Acción", "El ranger Cordell Walker imparte justicia en Texas.", 3, 1, 26,
                    ["Duelo al sol", "La emboscada", "Rescate en la frontera"], style="short")
    crimen = Series("Se ha escrito un crimen", "Policíaco", "La escritora Jessica Fletcher resuelve asesinatos.", 5, 3, 22,
                    ["Muerte en el teatro", "El testamento", "Crimen en la playa"], style="short", rate=7.2)
    return [
        ("06:00", MINUTOS_MUSICALES),
        ("07:00", walker), ("08:00", walker), ("09:00", crimen), ("10:00", crimen),
        ("11:00", Film(WESTERNS)),
        ("13:00", Film(DRAMAS)),
        ("15:30", Film(ACTION)),
        ("17:30", Film(DRAMAS)),
        ("20:00", crimen),
        ("21:00", Film(THRILLERS)),
        ("23:00", Film(ACTION)),
        ("25:00", Film(WESTERNS)),
        ("27:00", MINUTOS_MUSICALES),
    ]


def trece(day):
    return [
        ("06:00", Programme("Santa Misa", "Religión", "Celebración de la eucaristía.") if day == 6 else MINUTOS_MUSICALES),
        ("07:00", news("Trece al día", "Las noticias de la mañana.")),
        ("08:30", Programme("El Ángelus", "Religión", "Rezo del Ángelus.")),
        ("09:00", Film(WESTERNS)),
        ("11:00", Film(CLASSICS)),
        ("13:00", news("Trece al día", "Las noticias de mediodía.")),
        ("14:30", Programme("El Cascabel", "Debate", "Tertulia de actualidad política.")),
        ("15:30", Film(WESTERNS)),
        ("17:30", Film(WESTERNS)),
        ("19:30", news("Trece al día", "Las noticias de la tarde.")),
        ("20:30", Film(CLASSICS)),
        ("22:30", Programme("El Cascabel", "Debate", "Tertulia de actualidad política.")),
        ("24:30", Film(WESTERNS)),
        ("26:30", MINUTOS_MUSICALES),
    ]


def dkiss(day):
    return [
        ("06:00", TELETIENDA),
        ("08:00", doc("Di sí al vestido", "Reportajes", "Novias buscan el vestido perfecto en una tienda de Nueva York.")),
        ("10:00", doc("Mi extraña adicción", "Reportajes", "Personas con adicciones sorprendentes.")),
        ("12:00", doc("Mi vida con 300 kilos", "Salud", "Pacientes con obesidad mórbida intentan cambiar su vida.")),
        ("14:00", doc("Obsesión por los gatos", "Reportajes", "Personas que conviven con decenas de gatos.")),
        ("16:00", doc("Mi vida con 300 kilos", "Salud", "Pacientes con obesidad mórbida intentan cambiar su vida.")),
        ("18:00", doc("Casados a primera vista", "Reality", "Parejas que se conocen el día de su boda.")),
        ("20:00", doc("Mi vida con 300 kilos", "Salud", "Pacientes con obesidad mórbida intentan cambiar su vida.")),
        ("22:00", doc("Cuerpos extraños", "Salud", "Casos médicos insólitos.")),
        ("24:00", doc("Mi extraña adicción", "Reportajes", "Personas con adicciones sorprendentes.")),
        ("26:00", TELETIENDA),
    ]


def tv3(day):
    tn = Programme("Telenotícies migdia", "Noticias", "L'informatiu del migdia de TV3.")
    tnv = Programme("Telenotícies vespre", "Noticias", "L'informatiu del vespre de TV3.")
    if weekday(day):
        prime = {0: Programme("Joc de cartes", "Cuina", "Tres restaurants competeixen per ser el millor de la zona."),
                 1: doc("Sense ficció", "Reportatges", "Documentals d'actualitat i societat."),
                 2: Programme("El foraster", "Entreteniment", "Quim Masferrer passa uns dies en un poble de Catalunya."),
                 3: Programme("Polònia", "Humor", "Sàtira política amb imitacions dels personatges de l'actualitat.", rate=7.5),
                 4: Programme("Està passant", "Humor", "L'actualitat del dia en clau d'humor.")}[day]
        return [
            ("06:00", Programme("Notícies 3/24", "Noticias", "Les notícies del canal 3/24.")),
            ("08:00", Programme("Els matins", "Magacín", "Actualitat, entrevistes i debat.")),
            ("13:00", Programme("Cuines", "Cocina", "Receptes de la cuina catalana.")),
            ("13:25", Programme("Telenotícies comarques", "Noticias", "Les notícies de les comarques.")),
            ("14:30", tn),
            ("15:40", Series("Com si fos ahir", "Drama", "Un grup d'amics de la infància es retroba a Barcelona.", 1, 1650, 0, [], style="daily_ca")),
            ("16:20", Programme("Tot es mou", "Magacín", "Magazín de tarda amb actualitat i entreteniment.")),
            ("19:15", Programme("Atrapa'm si pots", "Concurso", "Concurs de preguntes i velocitat.")),
            ("21:00", tnv),
            ("22:05", prime),
            ("23:15", Programme("Està passant", "Humor", "L'actualitat del dia en clau d'humor.") if day != 4 else Film(TV3_FILMS, language="ca")),
            ("25:00", Programme("Notícies 3/24", "Noticias", "Les notícies del canal 3/24.")),
        ]
    return [
        ("06:00", Programme("Notícies 3/24", "Noticias", "Les notícies del canal 3/24.")),
        ("08:00", Programme("Info K", "Infantil", "Les notícies explicades per als nens i nenes.")),
        ("09:00", doc("Espai terra", "Meteorología", "Reportatges sobre el temps i la natura.")),
        ("11:00", doc("Catalunya des de l'aire", "Viajes", "Els paisatges de Catalunya vistos des del cel.")),
        ("13:00", Programme("Cuines", "Cocina", "Receptes de la cuina catalana.")),
        ("14:30", tn),
        ("15:40", Film(TV3_FILMS, language="ca")),
        ("17:45", Programme("Polònia", "Humor", "Sàtira política amb imitacions dels personatges de l'actualitat.", rate=7.5)),
        ("19:00", doc("30 minuts", "Reportatges", "El programa de reportatges de TV3.")),
        ("21:00", tnv),
        ("22:05", Film(TV3_FILMS, language="ca")),
        ("24:15", Programme("Notícies 3/24", "Noticias", "Les notícies del canal 3/24.")),
    ]


def etb1(day):
    goazen = Series("Go!azen", "Drama", "Gazte talde bat udalekuetan, musika eta maitasun artean.", 10, 1, 13,
                    ["Lehen eguna", "Kontzertua", "Sekretua"], style="short")
    return [
        ("06:00", Programme("Gaur Egun", "Noticias", "Euskarazko albistegia.")),
        ("07:00", kids("Betizu", "Haurrentzako marrazki bizidunak eta abestiak.", 3, 1, 52, ["Basoan", "Itsasoan", "Mendian"], style="plain")),
        ("10:00", doc("Mugaz gaindi", "Viajes", "Munduko txokoak euskaldunen begietatik.")),
        ("11:00", goazen),
        ("12:00", Programme("Sukalde kontuak", "Cocina", "Euskal sukaldaritzako errezetak.")),
        ("13:00", Programme("Gaur Egun", "Noticias", "Eguerdiko albistegia.")),
        ("14:00", kids("Betizu", "Haurrentzako marrazki bizidunak eta abestiak.", 3, 2, 52, ["Basoan", "Itsasoan", "Mendian"], style="plain")),
        ("17:00", sport("Pilota", "Binakako txapelketa", "Esku pilota partida zuzenean.") if day >= 5 else goazen),
        ("19:00", Programme("Herri txiki, infernu handi", "Humor", "Herri txiki bateko bizilagunen umorezko saioa.")),
        ("20:30", Programme("Gaur Egun", "Noticias", "Gaueko albistegia.")),
        ("21:15", Film(ETB_FILMS, language="eu") if day >= 4 else Programme("Hiru anaiak", "Entretenimiento", "Lehiaketa eta umorea.")),
        ("23:15", doc("Mugaz gaindi", "Viajes", "Munduko txokoak euskaldunen begietatik.")),
        ("24:15", Programme("Gaur Egun", "Noticias", "Gaueko albistegia.")),
        ("25:00", MINUTOS_MUSICALES),
    ]


SCHEDULES = {
    1: la1, 2: la2, 3: antena3, 4: cuatro, 5: telecinco, 6: lasexta, 7: canal24h, 8: clan,
    9: teledeporte, 10: neox, 11: nova, 12: mega, 13: atreseries, 14: fdf, 15: energy, 16: divinity,
    17: boing, 18: bemad, 19: dmax, 20: paramount, 21: trece, 22: dkiss, 23: tv3, 24: etb1,
}
# Channels whose night grid is hourly news: in the repeated hour of 25 October they air the 02:00
# bulletin twice, once in summer time and once in winter time.
REPEATS_AMBIGUOUS_HOUR = {7}


def week_of(channel):
    """(start, item) in UTC seconds for the channel's week, sorted and checked."""
    slots = []
    for day, date in enumerate(DAYS):
        rows = SCHEDULES[channel](day)
        times = [row[0] for row in rows]
        assert times == sorted(times, key=lambda t: tuple(map(int, t.split(":")))), f"channel {channel} day {day} not sorted"
        assert times[0] == "06:00", f"channel {channel} day {day} does not start at 06:00"
        for hhmm, item in rows:
            start = local_to_utc(date, hhmm)
            slots.append((start, item))
            if channel in REPEATS_AMBIGUOUS_HOUR and DST_END_UTC - 3600 <= start < DST_END_UTC:
                slots.append((start + 3600, item))
    slots.sort(key=lambda slot: slot[0])
    return slots


def render_week(channel):
    end_of_week = local_to_utc((2026, 10, 26), "06:00")
    slots = week_of(channel)
    state = {}
    shows = []
    for index, (start, item) in enumerate(slots):
        stop = slots[index + 1][0] if index + 1 < len(slots) else end_of_week
        assert stop > start, f"channel {channel}: empty slot at {start}"
        fields = item.render(state, channel)
        shows.append({
            "type": fields["type"], "showID": fields["showID"], "channelID": channel,
            "inittime": start, "endtime": stop, "subtype": fields["subtype"], "title": fields["title"],
            "subtitle": fields["subtitle"], "text": fields["text"], "rate": fields["rate"], "backdrop": fields["backdrop"],
        })
    return shows


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def dump_shows(shows):
    lines = ",\n".join(json.dumps(show, ensure_ascii=False, separators=(", ", ": ")) for show in shows)
    return '{"data": [\n' + lines + "\n]}\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--out", default=os.path.join(here, "..", "miguiatv"))
    out = os.path.normpath(parser.parse_args().out)

    flat = [[number, name, kind, language, f"{LOGO_BASE}{number}.png"] for number, name, kind, language in CHANNELS]
    write(os.path.join(out, "es_ES", "channels.json"),
          '{"data": [\n' + ",\n".join(json.dumps(row, ensure_ascii=False) for row in flat) + "\n]}\n")
    nested = [[str(number), name, kind, f"{LOGO_BASE}{number}.png"] for number, name, kind, _ in CHANNELS]
    write(os.path.join(out, "variant-nested", "es_ES", "channels.json"),
          '{"data": {"channels": [\n' + ",\n".join(json.dumps(row, ensure_ascii=False) for row in nested) + "\n]}}\n")

    now = local_to_utc(*NOW_LOCAL)
    on_air = []
    total = 0
    for number, *_ in CHANNELS:
        shows = render_week(number)
        total += len(shows)
        write(os.path.join(out, "es_ES", "channel", f"{number}.json"), dump_shows(shows))
        on_air += [show for show in shows if show["inittime"] <= now < show["endtime"]]
    write(os.path.join(out, "es_ES", "channel", "now.json"), dump_shows(on_air))
    print(f"{len(CHANNELS)} channels, {total} shows, {len(on_air)} on air at {now} -> {out}")


if __name__ == "__main__":
    main()
