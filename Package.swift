// swift-tools-version:6.1
import PackageDescription

// Every target, tests and fuzz targets included: a member (method, property, operator) is visible
// only through a module the file imports itself, so each file's imports say what it depends on.
let strictImports: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "tvguide",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tvguide", targets: ["tvguide"]),
        .library(name: "GuideCore", targets: ["GuideCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The HTTP client's gzip decoder: its ratio-limit error, told apart from a cut connection;
        // the server's HTTP/1 ↔ HTTPTypes conversion on its fast lane.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The PostgreSQL snapshot store that replicas share: transactions, LISTEN/NOTIFY, advisory locks.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Tests only: validates Resources/openapi.yaml and checks real answers against its schemas.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
    ],
    targets: [
        // The model, provider protocols, chains and the merge. Foundation only.
        .target(name: "GuideCore", swiftSettings: strictImports),
        // Where guides are kept: the snapshot JSON writer and reader, the packed companion, text
        // blocks and spill files, atomic files, the folder stores, the diff; and the heap's upkeep.
        .target(name: "GuideStorage", dependencies: ["GuideCore", "CMalloc"], swiftSettings: strictImports),
        // providers.yaml → typed configuration.
        .target(name: "GuideConfig", dependencies: [
            "GuideCore",
            .product(name: "Yams", package: "Yams"),
        ], swiftSettings: strictImports),
        // Implements GuideCore's HTTPTransport: the live client (retries, 429, conditional GET, on-disk cache) and the replay transport.
        .target(name: "GuideTransport", dependencies: [
            "GuideCore", "GuideStorage",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strictImports),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // glibc's malloc_trim: a server hands back the heap a guide's load or refresh freed.
        .systemLibrary(name: "CMalloc"),
        // jq (libjq 1.6), the query language of site recipes: filters, string functions, arithmetic.
        .systemLibrary(
            name: "CLibJQ",
            providers: [.apt(["libjq-dev"])]
        ),
        // Gzip in memory and streamed, on zlib (Foundation on Linux has no compression).
        .target(name: "GzipCodec", dependencies: ["GuideCore", "CLibXML2"], swiftSettings: strictImports),
        .target(name: "XMLTV", dependencies: ["GuideCore", "GuideStorage", "GzipCodec", "CLibXML2"],
                path: "Sources/Providers/XMLTV", swiftSettings: strictImports),
        .target(name: "MiGuiaTV", dependencies: ["GuideCore"],
                path: "Sources/Providers/MiGuiaTV", swiftSettings: strictImports),
        .target(name: "TMDB", dependencies: ["GuideCore"],
                path: "Sources/Providers/TMDB", swiftSettings: strictImports),
        .target(name: "TheTVDB", dependencies: ["GuideCore"],
                path: "Sources/Providers/TheTVDB", swiftSettings: strictImports),
        // Sources described in YAML: site recipes (HTML/XML with XPath, JSON with jq), their catalogue
        // in sources/ and its recorded tests; the older scrape and json-feed types.
        .target(name: "Scrape", dependencies: ["GuideCore", "GuideConfig", "GzipCodec", "CLibXML2", "CLibJQ"],
                path: "Sources/Providers/Scrape", swiftSettings: strictImports),
        // Snapshots in PostgreSQL for replicas: one transaction per build, NOTIFY when `latest` moves, the builder lock.
        .target(name: "GuideStorePostgres", dependencies: [
            "GuideCore", "GuideStorage",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strictImports),
        // The one place that wires modules together: provider catalogue, build pipeline, reports.
        .target(name: "TVGuideKit", dependencies: [
            "GuideCore", "GuideStorage", "GuideConfig", "GuideTransport", "GzipCodec", "XMLTV", "MiGuiaTV", "TMDB", "TheTVDB", "Scrape", "GuideServer", "GuideStorePostgres",
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strictImports),
        // `tvguide serve`: the JSON API, the web guide, iCalendar feeds and metrics over the in-memory guide.
        // Knows the model and its storage only; TVGuideKit hands it the refresh and the XMLTV export.
        .target(name: "GuideServer", dependencies: [
            "GuideCore", "GuideStorage",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "Mustache", package: "swift-mustache"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [
            // Text kept as files (lintable, diffable), compiled into the one binary.
            .embedInCode("Resources/openapi.yaml"),
            .embedInCode("Resources/guide.css"),
            .embedInCode("Resources/guide.js"),
            .embedInCode("Resources/layout.mustache"),
            .embedInCode("Resources/grid.mustache"),
            .embedInCode("Resources/channel.mustache"),
            .embedInCode("Resources/programme.mustache"),
            .embedInCode("Resources/airings.mustache"),
            .embedInCode("Resources/listed-airing.mustache"),
            .embedInCode("Resources/listed-days.mustache"),
            .embedInCode("Resources/day-picker.mustache"),
            .embedInCode("Resources/coming-up.mustache"),
            .embedInCode("Resources/search.mustache"),
            .embedInCode("Resources/audiences.mustache"),
            .embedInCode("Resources/calendar.mustache"),
            .embedInCode("Resources/channels.mustache"),
            .embedInCode("Resources/error.mustache"),
            // The pages' strings, one catalogue per language, and the genres' names in each.
            .embedInCode("Resources/strings-en.json"),
            .embedInCode("Resources/strings-es.json"),
            .embedInCode("Resources/genres.json"),
        ], swiftSettings: strictImports),
        .executableTarget(name: "tvguide", dependencies: [
            "TVGuideKit", "GuideCore", "GuideStorage", "GuideConfig",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strictImports),
        // bench/audiences.sh's Swift side: the scraper's throughput, the audience product path and the join.
        .executableTarget(name: "scrape-bench", dependencies: ["Scrape", "XMLTV", "GuideTransport", "GuideCore"],
                          path: "bench/ScrapeBench", swiftSettings: strictImports),

        .target(name: "TestSupport", dependencies: [
            "GuideCore",
            "GuideTransport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/TestSupport", swiftSettings: strictImports),
        // GuideStorage: the metadata cache tests keep answers in its folder store.
        .testTarget(name: "GuideCoreTests", dependencies: ["GuideCore", "GuideStorage", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "GuideStorageTests", dependencies: ["GuideStorage", "GuideCore", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "GuideConfigTests", dependencies: ["GuideConfig", "GuideCore", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "GuideTransportTests", dependencies: ["GuideTransport", "GuideCore", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "XMLTVTests", dependencies: ["XMLTV", "GzipCodec", "GuideCore", "GuideStorage", "GuideTransport", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "MiGuiaTVTests", dependencies: ["MiGuiaTV", "GuideCore", "GuideTransport", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "TMDBTests", dependencies: ["TMDB", "GuideCore", "GuideTransport", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "TheTVDBTests", dependencies: ["TheTVDB", "GuideCore", "GuideTransport", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "ScrapeTests", dependencies: ["Scrape", "GuideCore", "GuideTransport", "TestSupport"],
                    swiftSettings: strictImports),
        .testTarget(name: "TVGuideKitTests", dependencies: [
            "TVGuideKit", "GuideCore", "GuideStorage", "GuideConfig", "GuideTransport", "GuideServer", "TestSupport", "tvguide",
            // ReplicaTests hold locks in the store's database that a builder must run into.
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ], swiftSettings: strictImports),
        .testTarget(name: "GuideStorePostgresTests", dependencies: [
            // GuideTransport: the HTTP cache and the live transport over the store's cache table.
            "GuideStorePostgres", "GuideCore", "GuideStorage", "GuideTransport", "TestSupport",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: strictImports),
        .testTarget(name: "GuideServerTests", dependencies: [
            "GuideServer", "GuideCore", "GuideStorage", "GzipCodec", "XMLTV", "TVGuideKit", "GuideConfig", "TestSupport", "tvguide",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Yams", package: "Yams"),
            .product(name: "OpenAPIKit", package: "OpenAPIKit"),
        ], swiftSettings: strictImports),
    ]
)

// libFuzzer targets, one per parser of outside input (fuzz/README.md). They exist only when
// fuzz/run.sh sets TVGUIDE_FUZZ=1 and builds them in .build-fuzz; otherwise the package is unchanged.
if Context.environment["TVGUIDE_FUZZ"] == "1" {
    // The router target answers requests in-process, on an EmbeddedChannel (swift-nio's NIOEmbedded).
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["GuideCore", "GuideStorage"], path: "fuzz/Support",
                                   swiftSettings: strictImports))
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("xmltv", ["XMLTV"]),
        ("miguiatv", ["MiGuiaTV"]),
        ("tmdb", ["TMDB"]),
        ("thetvdb", ["TheTVDB"]),
        ("scrape-html", ["Scrape"]),
        ("json-feed", ["Scrape"]),
        ("config", ["GuideConfig"]),
        ("snapshot", []),
        ("icalendar", ["GuideServer"]),
        ("router", ["GuideServer", "XMLTV", .product(name: "Yams", package: "Yams"),
                    .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")]),
    ]
    for target in fuzzTargets {
        package.targets.append(.executableTarget(
            name: "fuzz-\(target.name)", dependencies: target.dependencies + ["GuideCore", "GuideStorage", "FuzzSupport"],
            path: "fuzz/\(target.name)",
            // No main of its own: libFuzzer's main calls LLVMFuzzerTestOneInput.
            swiftSettings: strictImports + [.unsafeFlags(["-parse-as-library"])]))
    }
}

// Micro-benchmarks of the hot paths (ordo-one/benchmark, Benchmarks/GuideBenchmarks). They exist
// only when bench/micro.sh sets TVGUIDE_MICROBENCH=1 and builds them in .build-micro, so that the
// package's own build and CI never fetch or compile the benchmark library.
if Context.environment["TVGUIDE_MICROBENCH"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(.executableTarget(
        name: "GuideBenchmarks",
        dependencies: ["GuideCore", "GuideStorage", "GuideServer", "XMLTV", .product(name: "Benchmark", package: "benchmark")],
        path: "Benchmarks/GuideBenchmarks",
        swiftSettings: strictImports,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]))
}
