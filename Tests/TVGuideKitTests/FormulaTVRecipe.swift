/// providers.yaml's formulatv recipe as provider `name`, indented for a `providers:` block, reading
/// pages from `url` with `options` as its further lines (`replay: …`, `timeout: 60s`). The tests
/// pin the recipe the recorded pages were made for rather than read it from providers.yaml.
func formulatvRecipe(_ name: String, url: String = "https://www.formulatv.com/audiencias/{date:dd-MM-yyyy}/",
                     options: [String]) -> String {
    """
      \(name):
        type: scrape
        produces: audience
        url: "\(url)"
        rows: "//table[@class='audiencias']//tr[td]"
        fields:
          rank:    { xpath: "td[1]", parse: integer }
          title:   { xpath: "td[2]", parse: text }
          channel: { xpath: "td[3]", parse: text }
          viewers: { xpath: "td[4]", parse: number }
          share:   { xpath: "td[5]", parse: percent }
          start:   { xpath: "td[6]", regex: "(\\\\d{1,2}:\\\\d{2})", parse: time }
        required: [title, channel, viewers]
    """ + options.map { "\n    \($0)" }.joined()
}
