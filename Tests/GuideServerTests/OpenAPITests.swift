import Foundation
import GuideCore
import GuideServer
import Testing
import Yams

/// `/openapi.yaml` parses, describes exactly the routes the server registers, and its schemas
/// name the fields the JSON routes really answer with.
@Suite struct OpenAPITests {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    @Test func theDocumentIsOpenAPI31ServedAsYAML() async throws {
        try await ServerHarness.run { client in
            let response = try await client.get("/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/yaml")
            #expect(response.headers["etag"] != nil)
            let document = try Self.parse(response.text)
            let version = try #require(document["openapi"] as? String)
            #expect(version.hasPrefix("3.1."))
            #expect((document["info"] as? [String: Any])?["title"] as? String == "tvguide")
        }
    }

    /// Fails until every helper's routes are registered: the document lists the agreed route map.
    @Test func pathsAndMethodsAreExactlyTheRoutesServed() async throws {
        try await ServerHarness.run { client in
            let document = try Self.parse(try await client.get("/openapi.yaml").text)
            let paths = try #require(document["paths"] as? [String: Any])
            var described: Set<String> = []
            for (path, item) in paths {
                for method in (item as? [String: Any] ?? [:]).keys where Self.methods.contains(method) {
                    described.insert("\(method.uppercased()) \(path)")
                }
            }
            let served = Set(client.routes)
            #expect(served.count == client.routes.count, "a route is registered twice")
            #expect(described.subtracting(served).sorted() == [], "described but not served")
            #expect(served.subtracting(described).sorted() == [], "served but not described")
        }
    }

    @Test func everyReferenceResolvesAndEveryPathParameterIsDeclared() async throws {
        let document = try await Self.servedDocument()
        var references: [String] = []
        Self.collectReferences(document, into: &references)
        #expect(references.count > 50)
        for reference in Set(references) {
            #expect(Self.resolve(reference, in: document) != nil, "\(reference) does not resolve")
        }
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for (path, item) in paths {
            let templated = Set(path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            for (method, operation) in item where Self.methods.contains(method) {
                let parameters = ((operation as? [String: Any])?["parameters"] as? [[String: Any]] ?? []).map { Self.dereference($0, in: document) }
                let declared = Set(parameters.filter { $0["in"] as? String == "path" }.compactMap { $0["name"] as? String })
                #expect(declared == templated, "\(method) \(path)")
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any]
                #expect(responses?["200"] != nil, "\(method) \(path) has no 200")
            }
        }
    }

    /// A real answer of each JSON route against its documented schema: every field answered is
    /// described, and every required field is answered.
    static let samples = [
        ("/channels", "/channels"), ("/lineups", "/lineups"), ("/now", "/now"), ("/grid", "/grid"),
        ("/channels/La1.es/schedule", "/channels/{id}/schedule"), ("/programmes/BeMad.es@20261021T200000Z", "/programmes/{id}"),
        ("/programmes/BeMad.es@20261021T200000Z/airings", "/programmes/{id}/airings"), ("/upcoming", "/upcoming"),
        ("/search?q=matrix", "/search"), ("/audiences", "/audiences"), ("/audiences/top", "/audiences/top"), ("/health", "/health"),
    ]

    @Test func answersMatchTheirSchemas() async throws {
        try await ServerHarness.run(settings: ServerSettings(port: 0, lineups: ["main": ["La1.es"]])) { client in
            let document = try Self.parse(try await client.get("/openapi.yaml").text)
            for (request, path) in Self.samples {
                let operation = try #require(((document["paths"] as? [String: Any])?[path] as? [String: Any])?["get"] as? [String: Any])
                let ok = try #require((operation["responses"] as? [String: Any])?["200"] as? [String: Any])
                let content = try #require((ok["content"] as? [String: Any])?["application/json"] as? [String: Any], "\(path)")
                let schema = try #require(content["schema"] as? [String: Any])
                let (properties, required) = Self.fields(of: schema, in: document)
                let body = try await client.get(request).object()
                #expect(Set(body.keys).subtracting(properties).sorted() == [], "\(request): fields not described")
                #expect(required.subtracting(body.keys).sorted() == [], "\(request): required fields missing")
                // One level down: a list's items.
                if let item = (body["items"] as? [[String: Any]])?.first {
                    let itemSchema = try #require(Self.itemSchema(of: schema, in: document), "\(path)")
                    let (itemProperties, itemRequired) = Self.fields(of: itemSchema, in: document)
                    #expect(Set(item.keys).subtracting(itemProperties).sorted() == [], "\(request): item fields not described")
                    #expect(itemRequired.subtracting(item.keys).sorted() == [], "\(request): item required fields missing")
                }
            }
        }
    }

    // MARK: - Reading the document

    static func servedDocument() async throws -> [String: Any] {
        try parse(try await ServerHarness.run { client in try await client.get("/openapi.yaml").text })
    }

    static func parse(_ text: String) throws -> [String: Any] {
        guard let document = try Yams.load(yaml: text) as? [String: Any] else { throw HarnessError("not a YAML mapping") }
        return document
    }

    static func collectReferences(_ node: Any, into references: inout [String]) {
        if let mapping = node as? [String: Any] {
            if let reference = mapping["$ref"] as? String { references.append(reference) }
            for value in mapping.values { collectReferences(value, into: &references) }
        } else if let sequence = node as? [Any] {
            for value in sequence { collectReferences(value, into: &references) }
        }
    }

    static func resolve(_ reference: String, in document: [String: Any]) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any = document
        for key in reference.dropFirst(2).split(separator: "/") {
            guard let next = (node as? [String: Any])?[String(key)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    static func dereference(_ node: [String: Any], in document: [String: Any]) -> [String: Any] {
        guard let reference = node["$ref"] as? String, let target = resolve(reference, in: document) else { return node }
        return dereference(target, in: document)
    }

    /// The properties and required fields of an object schema, through `$ref` and `allOf`.
    static func fields(of schema: [String: Any], in document: [String: Any]) -> (properties: Set<String>, required: Set<String>) {
        let schema = dereference(schema, in: document)
        var properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
        var required = Set(schema["required"] as? [String] ?? [])
        for part in schema["allOf"] as? [[String: Any]] ?? [] {
            let (partProperties, partRequired) = fields(of: part, in: document)
            properties.formUnion(partProperties)
            required.formUnion(partRequired)
        }
        return (properties, required)
    }

    /// The schema of `items` in a page schema.
    static func itemSchema(of schema: [String: Any], in document: [String: Any]) -> [String: Any]? {
        let schema = dereference(schema, in: document)
        if let items = ((schema["properties"] as? [String: Any])?["items"] as? [String: Any])?["items"] as? [String: Any] {
            return items
        }
        return (schema["allOf"] as? [[String: Any]] ?? []).lazy.compactMap { itemSchema(of: $0, in: document) }.first
    }
}
