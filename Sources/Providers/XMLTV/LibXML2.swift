import CLibXML2

enum LibXML2 {
    /// libxml2 sets up its global tables lazily, and that first set-up is not thread-safe: two
    /// providers parsing at once must not both be first. Swift runs a static initialiser once.
    static let initialised: Bool = {
        xmlInitParser()
        return true
    }()
}
