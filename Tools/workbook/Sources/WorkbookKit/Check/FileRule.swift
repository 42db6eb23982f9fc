extension Checker {
  /// Every exercise's files exist in the starter and the answer, each starter file's first line
  /// names its exercise, and the two folders hold the same files.
  func fileProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .files, message: message)) }
    for exercise in chapter.exercises {
      var titled = false
      for file in exercise.files {
        let starter = "\(chapter.starterPath)/\(file)"
        if !exists("\(chapter.answerPath)/\(file)") {
          problem("exercise \(exercise.number)'s answer \(chapter.answerPath)/\(file) is missing; add the reference answer")
        }
        guard let text = read(starter) else {
          problem("exercise \(exercise.number)'s starter \(starter) is missing; add it, or fix `files` in \(chapter.exercisesPath)")
          continue
        }
        let header = text.prefix { $0 != "\n" }
        let expected = "// Exercise \(exercise.number) — \(exercise.title)"
        if header == expected || header.hasPrefix(expected + " (") {
          titled = true
        } else if !header.hasPrefix("// Exercise \(exercise.number), part ") {
          problem(
            "\(starter):1 starts “\(header)”; the starter of exercise \(exercise.number) starts with its header "
              + "comment `\(expected) (level)`, or `// Exercise \(exercise.number), part K — …` for one of several files")
        }
      }
      if !titled, exercise.files.contains(where: { exists("\(chapter.starterPath)/\($0)") }) {
        problem(
          "no starter file of exercise \(exercise.number) is headed `// Exercise \(exercise.number) — \(exercise.title) (level)`, "
            + "the title in \(chapter.exercisesPath); head the exercise's main file with it")
      }
    }
    let starters = Set(files(in: chapter.starterPath))
    let answers = Set(files(in: chapter.answerPath))
    for file in starters.subtracting(answers).sorted() {
      problem("\(chapter.starterPath)/\(file) has no counterpart in \(chapter.answerPath); the answer has the very same files")
    }
    for file in answers.subtracting(starters).sorted() {
      problem("\(chapter.answerPath)/\(file) has no counterpart in \(chapter.starterPath); the starter has the very same files")
    }
    return found
  }

  /// The files of a chapter's module that belong to no exercise: code the learner is given.
  func givenFiles(_ chapter: Chapter) -> [String] {
    let written = Set(chapter.exercises.flatMap(\.files))
    return files(in: chapter.starterPath).filter { !written.contains($0) }
  }

  /// Given code is the same in the starter and the answer (a fix made in one must reach the
  /// other) and says so on its first line, `// Given: …`.
  func givenFileProblems(_ chapter: Chapter) -> [Problem] {
    givenFiles(chapter).flatMap { file -> [Problem] in
      let starter = "\(chapter.starterPath)/\(file)"
      let answer = "\(chapter.answerPath)/\(file)"
      guard let answerText = read(answer) else { return [] }  // reported by the files rule
      var found: [Problem] = []
      if read(starter) != answerText {
        found.append(
          Problem(
            rule: .given,
            message: "\(starter) is given code (no exercise lists it) but differs from \(answer); make them identical "
              + "(`diff \(starter) \(answer)`), or list the file in its exercise's `files` if the learner writes it"))
      }
      if file.hasSuffix(".swift"), let text = read(starter), !text.hasPrefix(Checker.givenFileLabel) {
        let header = text.prefix { $0 != "\n" }
        found.append(
          Problem(
            rule: .given,
            message: "\(starter):1 starts “\(header)”; a given file opens with its label, `\(Checker.givenFileLabel) what it is. "
              + "Nothing to write here.`, the same in \(answer)"))
      }
      return found
    }
  }
}
