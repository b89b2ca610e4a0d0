// Package provenance writes and checks catalogkit's build provenance: the
// file catalogkit-<version>.provenance.json beside a release, an in-toto
// Statement v1 whose predicate is SLSA Provenance v1, signed in the minisign
// format by the release key (package sign) in
// catalogkit-<version>.provenance.json.minisig.
//
// # The statement
//
// [Build] writes, for one archive:
//
//   - "_type": "https://in-toto.io/Statement/v1";
//   - "subject": exactly one resource descriptor, the archive: its file name
//     and {"sha256": hex}, with the content tree hash as the annotation
//     "treeHash";
//   - "predicateType": "https://slsa.dev/provenance/v1";
//   - "predicate.buildDefinition": "buildType" [BuildType] (this packager;
//     its version is the rules version); "externalParameters" the source
//     repository, the commit and the version; "internalParameters" the
//     manifest rules ([Inputs].Rules) and whether the checkout was clean;
//     "resolvedDependencies" the source: the repository's URI and
//     {"gitCommit": hex};
//   - "predicate.runDetails.builder": "id" [BuilderID], "version"
//     {"catalogkit": version}, and "builderDependencies" the Go toolchain and
//     the compressor module as package URLs (pkg:golang/...).
//
// There is no "metadata": no timestamps, no invocation ID, nothing that
// differs between two builds of the same commit, so the same inputs give the
// same bytes. Keys are sorted at every level (the order of encoding/json for
// maps), the text is indented by two spaces, HTML characters are not
// escaped, and the file ends with one newline.
//
// # Checks
//
// [Check] verifies the signature first (the codes of package sign: the
// statement is authentic and signed with a catalogkit comment), then reads
// the statement, refusing with these codes in this order:
//
//   - [CodeFormat]: not JSON, unknown or missing fields, more than one
//     subject, larger than [MaxSize];
//   - [CodeType]: another statement type, predicate type or build type;
//   - [CodeOtherArchive]: the subject names another archive file;
//   - [CodeDigest]: the subject has the archive's name but another SHA-256;
//   - [CodeFormat]: the statement is not byte for byte what [Build] writes
//     for the values it holds;
//   - sign's [sign.CodeWrongFile] or [sign.CodeVersionMismatch]: the
//     signature's comment is for another file (a SHA256SUMS signature, say)
//     or version;
//   - [CodeCommentMismatch]: the statement's commit or tree hash differ from
//     what its signature's comment says.
package provenance
