// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tvguide",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tvguide", targets: ["tvguide"]),
        .library(name: "GuideCore", targets: ["GuideCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The HTTP client's gzip decoder: its ratio-limit error, told apart from a cut connection.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The PostgreSQL snapshot store that replicas share (issue 14): transactions, LISTEN/NOTIFY, advisory locks.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Tests only: validates Resources/openapi.yaml and checks real answers against its schemas.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
    ],
    targets: [
        // The model, provider protocols, chains, normalisation, snapshots and diff. Foundation only.
        .target(name: "GuideCore"),
        // providers.yaml → typed configuration.
        .target(name: "GuideConfig", dependencies: [
            "GuideCore",
            .product(name: "Yams", package: "Yams"),
        ]),
        // Implements GuideCore's HTTPTransport: the live client (retries, 429, conditional GET, on-disk cache) and the replay transport.
        .target(name: "GuideTransport", dependencies: [
            "GuideCore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // jq (libjq 1.6), the query language of site recipes: filters, string functions, arithmetic.
        .systemLibrary(
            name: "CLibJQ",
            providers: [.apt(["libjq-dev"])]
        ),
        .target(name: "XMLTV", dependencies: ["GuideCore", "CLibXML2"],
                path: "Sources/Providers/XMLTV"),
        .target(name: "MiGuiaTV", dependencies: ["GuideCore"],
                path: "Sources/Providers/MiGuiaTV"),
        .target(name: "TMDB", dependencies: ["GuideCore"],
                path: "Sources/Providers/TMDB"),
        .target(name: "TheTVDB", dependencies: ["GuideCore"],
                path: "Sources/Providers/TheTVDB"),
        // Sources defined in providers.yaml: HTML pages scraped with XPath, JSON feeds with a field map.
        .target(name: "Scrape", dependencies: ["GuideCore", "CLibXML2", "CLibJQ"],
                path: "Sources/Providers/Scrape"),
        // Snapshots in PostgreSQL for replicas: one transaction per build, NOTIFY when `latest` moves, the builder lock.
        .target(name: "GuideStorePostgres", dependencies: [
            "GuideCore",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The one place that wires modules together: provider catalogue, build pipeline, reports.
        .target(name: "TVGuideKit", dependencies: [
            "GuideCore", "GuideConfig", "GuideTransport", "XMLTV", "MiGuiaTV", "TMDB", "TheTVDB", "Scrape", "GuideServer", "GuideStorePostgres",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // `tvguide serve`: the JSON API, the web guide, iCalendar feeds and metrics over the in-memory guide.
        // Knows GuideCore only; the CLI hands it the refresh and the XMLTV export.
        .target(name: "GuideServer", dependencies: [
            "GuideCore",
            .product(name: "Hummingbird", package: "hummingbird"),
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
            .embedInCode("Resources/error.mustache"),
        ]),
        .executableTarget(name: "tvguide", dependencies: [
            "TVGuideKit", "GuideCore", "GuideConfig", "XMLTV", "GuideServer", "Scrape",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // bench/audiences.sh's Swift side: the scraper's throughput, the audience product path and the join.
        .executableTarget(name: "scrape-bench", dependencies: ["Scrape", "XMLTV", "GuideTransport", "GuideCore"], path: "bench/ScrapeBench"),

        .target(name: "TestSupport", dependencies: [
            "GuideCore",
            "GuideTransport",
            .product(name: "Hummingbird", package: "hummingbird"),
        ], path: "Tests/TestSupport"),
        .testTarget(name: "GuideCoreTests", dependencies: ["GuideCore", "TestSupport"]),
        .testTarget(name: "GuideConfigTests", dependencies: ["GuideConfig", "TestSupport"]),
        .testTarget(name: "GuideTransportTests", dependencies: ["GuideTransport", "TestSupport"]),
        .testTarget(name: "XMLTVTests", dependencies: ["XMLTV", "GuideTransport", "TestSupport"]),
        .testTarget(name: "MiGuiaTVTests", dependencies: ["MiGuiaTV", "GuideTransport", "TestSupport"]),
        .testTarget(name: "TMDBTests", dependencies: ["TMDB", "GuideTransport", "TestSupport"]),
        .testTarget(name: "TheTVDBTests", dependencies: ["TheTVDB", "GuideTransport", "TestSupport"]),
        .testTarget(name: "ScrapeTests", dependencies: ["Scrape", "GuideTransport", "TestSupport"]),
        .testTarget(name: "TVGuideKitTests", dependencies: [
            "TVGuideKit", "TestSupport", "tvguide",
            // ReplicaTests hold locks in the store's database that a builder must run into.
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "GuideStorePostgresTests", dependencies: [
            "GuideStorePostgres", "GuideCore", "TestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "GuideServerTests", dependencies: [
            "GuideServer", "TVGuideKit", "GuideConfig", "TestSupport", "tvguide",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Yams", package: "Yams"),
            .product(name: "OpenAPIKit", package: "OpenAPIKit"),
        ]),
    ]
)

// libFuzzer targets, one per parser of outside input (fuzz/README.md). They exist only when
// fuzz/run.sh sets TVGUIDE_FUZZ=1 and builds them in .build-fuzz; otherwise the package is unchanged.
if Context.environment["TVGUIDE_FUZZ"] == "1" {
    // The router target answers requests in-process, on an EmbeddedChannel.
    package.dependencies.append(.package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["GuideCore"], path: "fuzz/Support"))
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
            name: "fuzz-\(target.name)", dependencies: target.dependencies + ["GuideCore", "FuzzSupport"],
            path: "fuzz/\(target.name)",
            // No main of its own: libFuzzer's main calls LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
