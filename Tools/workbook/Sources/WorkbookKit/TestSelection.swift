import Foundation

/// Some tests of one chapter, by function name: what `make mutants` runs first for a mutant, its
/// recorded killers (and the tests its citations pair it with), before the whole suite.
///
/// A name is a test function's without its argument labels, as `killers.tsv` keeps it. It selects
/// every test function of that name in the chapter's test module, whatever suite holds it.
struct TestSelection: Equatable {
  /// The chapter's module, `DataStore`: its tests are `DataStoreTests`.
  let module: String
  /// Sorted, each once; only names a test function can have.
  let names: [String]

  /// Nil when no name is left: a selection of nothing is no run to make.
  init?(module: String, names: some Sequence<String>) {
    let kept = Set(names.filter { $0.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil })
    guard !kept.isEmpty else { return nil }
    self.module = module
    self.names = kept.sorted()
  }

  /// The `swift test --filter` pattern for the selected tests of `exercise` (all exercises when
  /// nil). Swift Testing matches it against a test's id, `DataStoreTests.Exercise2_UpdateTests/
  /// concurrentIncrementsAreNotLost()`: the module, the suites, then the function with its labels.
  /// The name must end at the `(`, so `createsOnce` does not also select `createsOnceEvenWhen…`.
  func filter(exercise: Int? = nil) -> String {
    let suite = exercise.map { #"Exercise\#($0)_[A-Za-z0-9_]*"# } ?? #"[A-Za-z0-9_]+"#
    return #"^\#(module)Tests\.\#(suite)(/[^/(]+)*/(\#(names.joined(separator: "|")))\("#
  }

  /// Whether a test of a run's report is one of the selected.
  func contains(_ test: TestCase) -> Bool {
    test.module == module && names.contains(testName(test.name))
  }
}
