import Foundation
import GuideCore

// The snapshot model as JSONWriter writes it: each type lists its members in the UTF-8 byte
// order of their JSON keys (the tests check the order, and that the output equals JSONEncoder's).

extension Snapshot: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("audiences", audiences)
            json.member("channels", channels)
            json.member("generatedAt", generatedAt)
            json.key("programmes")
            json.values(inParallel: programmes)
            json.member("report", report)
            json.member("schemaVersion", schemaVersion)
            json.member("window", window)
            json.member("works", works)
        }
    }
}

extension TimeWindow: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("from", from)
            json.member("to", to)
        }
    }
}

extension Channel: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("icons", icons)
            json.member("id", id)
            json.member("language", language)
            json.member("links", links)
            json.member("logo", logo)
            json.member("name", name)
            json.member("otherNames", otherNames)
            json.member("providerIDs", providerIDs)
            json.member("type", type)
            json.member("url", url)
        }
    }
}

extension LocalizedText: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("lang", lang)
            json.member("value", value)
        }
    }
}

extension Programme: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("audio", audio)
            json.member("categories", categories)
            json.member("channel", channel)
            json.member("countries", countries)
            json.member("credits", credits)
            json.member("date", date)
            json.member("episode", episode)
            json.member("images", images)
            json.member("keywords", keywords)
            json.member("kind", kind)
            json.member("language", language)
            json.member("lastChance", lastChance)
            json.member("length", length)
            json.member("new", isNew)
            json.member("originalLanguage", originalLanguage)
            json.member("otherTexts", otherTexts)
            json.member("premiere", premiere)
            json.member("previouslyShown", previouslyShown)
            json.member("providerIDs", providerIDs)
            json.member("ratings", ratings)
            json.member("sameStartIndex", sameStartIndex)
            json.member("source", source)
            json.member("starRatings", starRatings)
            json.member("start", start)
            json.member("stop", stop)
            json.member("subtitle", subtitle)
            json.member("subtitles", subtitles)
            json.member("synopsis", synopsisText)
            json.member("textLanguage", textLanguage)
            json.member("title", title)
            json.member("urls", urls)
            json.member("video", video)
            json.member("work", work)
            json.member("xmltv", xmltv)
            json.member("year", year)
        }
    }
}

extension XMLTVExtras: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("clumpIndex", clumpIndex)
            json.member("countryLangs", countryLangs)
            json.member("languageLang", languageLang)
            json.member("lastChanceNote", lastChanceNote)
            json.member("originalLanguageLang", originalLanguageLang)
            json.member("pdcStart", pdcStart)
            json.member("premiereNote", premiereNote)
            json.member("reviews", reviews)
            json.member("showview", showview)
            json.member("subtitleLang", subtitleLang)
            json.member("synopsisLang", synopsisLang)
            json.member("urlSystems", urlSystems)
            json.member("videoplus", videoplus)
            json.member("vpsStart", vpsStart)
        }
    }
}

extension Review: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("lang", lang)
            json.member("reviewer", reviewer)
            json.member("source", source)
            json.member("type", type)
            json.member("value", value)
        }
    }
}

extension WebLink: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("system", system)
            json.member("url", url)
        }
    }
}

extension ProgrammeText: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("field", field)
            json.member("lang", lang)
            json.member("value", value)
        }
    }
}

extension Episode: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("episodeCount", episodeCount)
            json.member("number", number)
            json.member("onscreen", onscreen)
            json.member("other", other)
            json.member("part", part)
            json.member("partCount", partCount)
            json.member("season", season)
            json.member("seasonCount", seasonCount)
            json.member("xmltvNS", xmltvNS)
        }
    }
}

extension Credit: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("character", character)
            json.member("guest", guest)
            json.member("images", images)
            json.member("name", name)
            json.member("role", role)
            json.member("urls", urls)
        }
    }
}

extension ImageRef: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("height", height)
            json.member("kind", kind)
            json.member("orient", orient)
            json.member("size", size)
            json.member("system", system)
            json.member("url", url)
            json.member("width", width)
            json.member("xmltvImage", xmltvImage)
        }
    }
}

extension VideoInfo: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("aspect", aspect)
            json.member("colour", colour)
            json.member("present", present)
            json.member("quality", quality)
        }
    }
}

extension AudioInfo: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("present", present)
            json.member("stereo", stereo)
        }
    }
}

extension PreviouslyShown: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("start", start)
        }
    }
}

extension SubtitleInfo: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("language", language)
            json.member("languageLang", languageLang)
            json.member("type", type)
        }
    }
}

extension Rating: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("icon", icon)
            json.member("icons", icons)
            json.member("system", system)
            json.member("value", value)
        }
    }
}

extension RunReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("audience", audience)
            json.member("channels", channels)
            json.member("metadata", metadata)
            json.member("normalisation", normalisation)
            json.member("playlist", playlist)
            json.member("providers", providers)
            json.member("warnings", warnings)
        }
    }
}

extension PlaylistReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("ambiguous", ambiguous)
            json.member("entries", entries)
            json.member("error", error)
            json.member("matched", matched)
            json.member("source", source)
            json.member("unmatched", unmatched)
        }
    }
}

extension PlaylistReport.Ambiguity: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("candidates", candidates)
            json.member("entry", entry)
        }
    }
}

extension PlaylistReport.Match: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("by", by)
            json.member("channel", channel)
            json.member("entry", entry)
        }
    }
}

extension PlaylistReport.Unmatched: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("entry", entry)
            json.member("tvgID", tvgID)
        }
    }
}

extension ProviderReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channelsFallenBack", channelsFallenBack)
            json.member("channelsServed", channelsServed)
            json.member("errors", errors)
            json.member("gapsFilled", gapsFilled)
            json.member("id", id)
            json.member("notes", notes)
            json.member("programmes", programmes)
            json.member("status", status)
            json.member("type", type)
        }
    }
}

extension ProviderFailure: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("day", day)
            json.member("kind", kind)
            json.member("message", message)
        }
    }
}

extension ChannelReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("id", id)
            json.member("programmes", programmes)
            json.member("provider", provider)
            json.member("stale", stale)
            json.member("staleSince", staleSince)
        }
    }
}

extension NormalisationReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("duplicatesDropped", duplicatesDropped)
            json.member("invalidDropped", invalidDropped)
            json.member("outsideWindow", outsideWindow)
            json.member("overlapping", overlapping)
            json.member("overlapsDropped", overlapsDropped)
            json.member("stopsFilled", stopsFilled)
            json.member("unknownChannel", unknownChannel)
        }
    }
}

extension Work: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("guideTitles", guideTitles)
            json.member("id", id)
            json.member("kind", kind)
            json.member("matches", matches)
            json.member("metadata", metadata)
            json.member("sources", sources)
        }
    }
}

extension Metadata: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("backdrop", backdrop)
            json.member("budget", budget)
            json.member("cast", cast)
            json.member("contentRating", contentRating)
            json.member("countries", countries)
            json.member("crew", crew)
            json.member("genres", genres)
            json.member("homepage", homepage)
            json.member("images", images)
            json.member("network", network)
            json.member("originalLanguage", originalLanguage)
            json.member("originalTitle", originalTitle)
            json.member("overview", overview)
            json.member("poster", poster)
            json.member("providerIDs", providerIDs)
            json.member("released", released)
            json.member("revenue", revenue)
            json.member("runtime", runtime)
            json.member("seasons", seasons)
            json.member("status", status)
            json.member("tagline", tagline)
            json.member("title", title)
            json.member("videos", videos)
            json.member("voteAverage", voteAverage)
            json.member("voteCount", voteCount)
            json.member("year", year)
        }
    }
}

extension CastMember: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("character", character)
            json.member("name", name)
            json.member("photo", photo)
        }
    }
}

extension CrewMember: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("department", department)
            json.member("job", job)
            json.member("name", name)
        }
    }
}

extension Video: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("key", key)
            json.member("language", language)
            json.member("name", name)
            json.member("site", site)
            json.member("type", type)
        }
    }
}

extension MetadataMatch: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("confidence", confidence)
            json.member("method", method)
            json.member("providerID", providerID)
            json.member("title", title)
        }
    }
}

extension MetadataReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("ambiguous", ambiguous)
            json.member("programmesEnriched", programmesEnriched)
            json.member("providers", providers)
            json.member("titles", titles)
            json.member("unmatched", unmatched)
            json.member("works", works)
        }
    }
}

extension MetadataProviderReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("ambiguous", ambiguous)
            json.member("cached", cached)
            json.member("errors", errors)
            json.member("failed", failed)
            json.member("id", id)
            json.member("lookups", lookups)
            json.member("matched", matched)
            json.member("noMatch", noMatch)
            json.member("notes", notes)
            json.member("status", status)
            json.member("type", type)
            json.member("worksContributed", worksContributed)
        }
    }
}

extension Day: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.string(description)
    }
}

extension AudienceDay: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("day", day)
            json.member("records", records)
        }
    }
}

extension AudienceRecord: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("channel", channel)
            json.member("day", day)
            json.member("programme", programme)
            json.member("rank", rank)
            json.member("share", share)
            json.member("source", source)
            json.member("start", start)
            json.member("title", title)
            json.member("viewers", viewers)
        }
    }
}

extension AudienceReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("days", days)
            json.member("failed", failed)
            json.member("fetched", fetched)
            json.member("joined", joined)
            json.member("providers", providers)
            json.member("records", records)
            json.member("stale", stale)
        }
    }
}

extension AudienceProviderReport: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("errors", errors)
            json.member("failed", failed)
            json.member("id", id)
            json.member("kept", kept)
            json.member("notes", notes)
            json.member("records", records)
            json.member("served", served)
            json.member("status", status)
            json.member("type", type)
        }
    }
}
