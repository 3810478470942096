import Foundation

/// The jq filter a json-feed recipe compiles to: it follows the recipe's paths through the
/// answer, stops with a message that names the path, the item and what the layout has instead
/// when they do not fit, and maps each item to a programme object for the site engine.
enum JSONFeedFilter {
    /// `fields`: each mapped field with its path as written and its steps, in `Field.allCases` order.
    static func source(items: String, steps: [JSONValue], fields: [(JSONFeedRecipe.Field, String, [JSONValue])]) -> String {
        var lines = [prelude]
        lines.append("_resolve(\(JSONValue.array(steps).jsonText); \"the response\") as $items")
        lines.append("| if $items.miss != null then error(\(literal("items '\(items)' not found: ")) + $items.miss)")
        lines.append("  elif ($items.value | type) != \"array\" then error(\(literal("items '\(items)' is ")) + ($items.value | _kind) + \", not an array\")")
        lines.append("  else $items.value | to_entries[] | (\(literal(items)) + \"[\\(.key)]\") as $place | .value")
        var optional: [String] = []
        for (field, path, fieldSteps) in fields {
            let located = "_resolve(\(JSONValue.array(fieldSteps).jsonText); \"the item\")"
            if field.isRequired {
                let name = literal(": field '\(field)' (path '\(path)')")
                lines.append("  | \(located) as $\(field)")
                lines.append("  | if $\(field).miss != null then error($place + \(name) + \" is missing: \" + $\(field).miss)")
                lines.append("    elif ($\(field).value | _blank) then error($place + \(name) + \" is \" + ($\(field).value | _excerpt))")
                if field == .title {
                    lines.append("    elif ($title.value | type) != \"string\" and ($title.value | type) != \"number\" then error($place + \(name) + \": \" + ($title.value | _excerpt) + \" is not text\")")
                }
                lines.append("    else . end")
            } else {
                lines.append("  | (\(located) | if .miss != null or (.value | _blank) then {} else .value | _\(field) end) as $\(field)")
                optional.append("$\(field)")
            }
        }
        let parts = "[" + optional.joined(separator: ", ") + "]"
        lines.append("  | \(parts) as $parts")
        lines.append("  | {start: $start.value, title: $title.value, _place: $place, _start: ($start.value | _excerpt),")
        lines.append("     _found: [$parts[] | .found // empty], _unreadable: ([$parts[] | select(.unreadable) | {(.found): .unreadable}] | add // {})}")
        lines.append("    + ([$parts[] | .set // {}] | add // {})")
        lines.append("  end")
        return lines.joined(separator: "\n")
    }

    /// A jq string literal: JSON's escapes are jq's, and JSON never writes the `\(` jq interpolates.
    private static func literal(_ text: String) -> String {
        JSONValue.string(text).jsonText
    }

    /// Path walking and the words of the messages, as json-feed has always written them; then how
    /// each optional field reads, giving `{found, set}` or `{found, unreadable: what it holds}`.
    private static let prelude = #"""
    def _kind: if . == null then "null" elif type == "boolean" then "a boolean" elif type == "number" then "a number"
      elif type == "string" then "a string" elif type == "array" then "an array" else "an object" end;
    def _excerpt: if type == "string" then "\"" + (if length > 40 then .[0:40] + "…" else . end) + "\""
      elif type == "array" then "an array of \(length)" elif type == "object" then "an object" else tostring end;
    def _blank: . == null or (type == "string" and (explode | all(. == 32 or (. >= 9 and . <= 13) or . == 133 or . == 160
      or . == 5760 or (. >= 8192 and . <= 8202) or . == 8232 or . == 8233 or . == 8239 or . == 8287 or . == 12288)));
    def _resolve($steps; $document):
      reduce $steps[] as $step ({value: ., reached: "", miss: null};
        if .miss != null then .
        else (if .reached == "" then $document else "'" + .reached + "'" end) as $subject
        | if ($step | type) == "string" then
            if (.value | type) == "object" then
              if (.value | has($step)) then .value = .value[$step] | .reached += (if .reached == "" then $step else "." + $step end)
              else (.value | keys) as $keys
                | .miss = "\($subject) has no key '\($step)'"
                  + (if ($keys | length) == 0 then "" else " (its keys: " + ($keys[0:12] | join(", ")) + (if ($keys | length) > 12 then ", …" else "" end) + ")" end)
              end
            else .miss = "\($subject) is \(.value | _kind), not an object with key '\($step)'" end
          elif (.value | type) == "array" then
            if $step < (.value | length) then .value = .value[$step] | .reached += "[\($step)]"
            else .miss = "\($subject) has no element [\($step)] (an array of \(.value | length))" end
          else .miss = "\($subject) is \(.value | _kind), not an array to take [\($step)] from" end
        end);
    def _text($field; $key): if type == "string" or type == "number" then {found: $field, set: {($key): .}} else {found: $field, unreadable: _kind} end;
    def _stop: {found: "stop", set: {stop: .}};
    def _subtitle: _text("subtitle"; "subtitle");
    def _description: _text("description"; "description");
    def _category: (if type == "array" then . else [.] end | map(select((type == "string" or type == "number") and (_blank | not)))) as $names
      | if ($names | length) > 0 then {found: "category", set: {categories: $names}} else {found: "category", unreadable: _kind} end;
    def _whole: if type == "number" then (if . == floor then . else null end)
      elif type == "string" and test("^[+-]?[0-9]+$") then tonumber else null end;
    def _episode:
      if type == "number" then (if . >= 1 and . == floor then {found: "episode", set: {episode: .}} else {found: "episode", unreadable: _kind} end)
      elif type == "string" then
        (sub("^[ \t]+"; "") | sub("[ \t]+$"; "")) as $text
        | if ($text | test("^[0-9]+$")) and ($text | tonumber) >= 1 then {found: "episode", set: {episode: ($text | tonumber)}}
          elif ($text | test("^[SsTt][0-9]{1,4}\\s*[EeCc][0-9]{1,5}$")) then
            ($text | capture("^[SsTt](?<s>[0-9]{1,4})\\s*[EeCc](?<e>[0-9]{1,5})$")) as $m
            | {found: "episode", set: {season: ($m.s | tonumber), episode: ($m.e | tonumber), _onscreen: $text}}
          elif ($text | test("^[0-9]{1,4}[xX][0-9]{1,5}$")) then
            ($text | capture("^(?<s>[0-9]{1,4})[xX](?<e>[0-9]{1,5})$")) as $m
            | {found: "episode", set: {season: ($m.s | tonumber), episode: ($m.e | tonumber), _onscreen: $text}}
          elif $text == "" then {found: "episode", unreadable: _kind}
          else {found: "episode", set: {_onscreen: $text}} end
      elif type == "object" then
        (.season | _whole) as $season | ((if has("episode") then .episode else .number end) | _whole) as $number
        | if $season == null and $number == null then {found: "episode", unreadable: _kind}
          else {found: "episode", set: ({season: $season, episode: $number} | with_entries(select(.value != null)))} end
      else {found: "episode", unreadable: _kind} end;
    """#
}
