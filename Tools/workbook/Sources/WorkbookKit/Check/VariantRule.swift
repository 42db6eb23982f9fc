extension Checker {
  /// How many variants a chapter needs at least: enough different correct solutions that a test
  /// which asks for one particular solution is found out.
  static let minimumVariants = 5

  /// Every chapter has at least `minimumVariants` variants, each with a `title:` and a `why:`,
  /// that parse and apply to its answer (as `make variants --check` does, without building).
  func variantProblems(_ chapter: Chapter) -> [Problem] {
    let checked = variantFileProblems(chapter, root: root)
    var found = checked.problems.map { Problem(rule: .variants, message: $0) }
    if checked.count < Checker.minimumVariants {
      let has = checked.count == 0 ? "no variants" : "\(checked.count) variant\(checked.count == 1 ? "" : "s")"
      found.insert(
        Problem(
          rule: .variants,
          message: "\(chapter.variantsPath) has \(has); a chapter needs at least \(Checker.minimumVariants) "
            + "(`NN-name.variant`: a different correct solution, in the mutant format closed with `>>>>>>> variant`)"),
        at: 0)
    }
    return found
  }
}
