extension Checker {
  func hintProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .hints, message: message)) }
    guard let text = read(chapter.hintsPath) else {
      return [Problem(rule: .hints, message: "\(chapter.hintsPath) is missing: add one `## N. Title` section per exercise")]
    }
    let sections = markdownSections(text: text)
    for section in sections {
      let place = "\(chapter.hintsPath):\(section.line)"
      guard let captures = matches(#"^(\d+)\. (.+)$"#, in: section.heading).first, let number = Int(captures[1]) else {
        problem("\(place): the heading “\(section.heading)” is not a hint heading; write `## N. Title` for exercise N")
        continue
      }
      guard let exercise = chapter.exercise(number) else {
        problem("\(place): a hint for exercise \(number), which \(chapter.exercisesPath) does not list; remove it or fix its number")
        continue
      }
      if captures[2] != exercise.title {
        problem(
          "\(place): the hint is headed “\(captures[2])”, but \(chapter.exercisesPath) calls exercise \(number) "
            + "“\(exercise.title)”; head it `## \(number). \(exercise.title)`")
      }
      if section.body.isEmpty { problem("\(place): the hint for exercise \(number) is empty") }
    }
    for exercise in chapter.exercises {
      let count = sections.filter { Int($0.heading.prefix { $0.isNumber }) == exercise.number }.count
      if count == 0 {
        problem(
          "\(chapter.hintsPath) has no hint for exercise \(exercise.number); add a section "
            + "`## \(exercise.number). \(exercise.title)` (the grader shows it under the first failure)")
      } else if count > 1 {
        problem("\(chapter.hintsPath) has \(count) hints for exercise \(exercise.number); the grader shows only the first, keep one")
      }
    }
    return found
  }
}
