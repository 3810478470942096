/// `/openapi.yaml`: the whole service in OpenAPI 3.1, every route `GuideServer.routes` lists
/// (`OpenAPITests` validates it with OpenAPIKit and holds the two together). `Resources/openapi.yaml`,
/// embedded in the binary: a file that reads as the reference it is and that tools can lint;
/// docs/server.md has the examples.
enum OpenAPIDocument {
    static let yaml: [UInt8] = PackageResources.openapi_yaml
}
