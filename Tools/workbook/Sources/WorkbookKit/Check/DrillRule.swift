import Foundation

/// Whose code a drill's `shown by` cells name.
enum DrillOwner {
  /// A chapter's drill: each cell names exercises and tests of that chapter (`ex. N `test``), or
  /// one row says `the drill's timer`.
  case chapter(Chapter)
  /// A drill beyond the chapters (`Drills/<name>`): each cell names exercises and tests of the
  /// chapters in `reuses` (`ch. C ex. N `test``), or says `not built here`.
  case beyond(name: String, reuses: [Int], catalog: Catalog)
}

/// The limits a drill is held to (rule `extras`).
enum DrillLimits {
  /// Timed phases at least.
  static let phases = 5
  /// The phases' minutes in all.
  static let minutes = 40...50
  /// The `shown by` cell of the one row a chapter's drill may score on the timer alone.
  static let timerRow = "the drill's timer"
  /// The most points that row may carry.
  static let timerPoints = 15
  /// The `shown by` cell of a row of a drill beyond the chapters about what no chapter builds.
  static let notBuiltHere = "not built here"
  /// Rows of a drill beyond the chapters that name tests, at least.
  static let rowsWithTests = 2
}

extension Checker {
  /// A chapter's drill: timed phases (`## N. Title — M min`, at least five, 40–50 minutes), a
  /// rubric of 100 points whose `shown by` cells name exercises and tests of the chapter, and red
  /// flags.
  func drillProblems(_ relative: String, _ chapter: Chapter) -> [Problem] {
    guard let text = read(relative) else {
      return [Problem(rule: .extras, message: "\(chapter.exercisesPath) names the drill \(relative), which is missing")]
    }
    return drillProblems(relative, text: text, owner: .chapter(chapter))
  }

  func drillProblems(_ relative: String, text: String, owner: DrillOwner) -> [Problem] {
    if let round = DrillRound.parse(text) { return roundProblems(relative, round, text: text, owner: owner) }
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .extras, message: message)) }
    let sections = markdownSections(text: text)
    var phases: [DrillCommand.Phase] = []
    for section in sections where section.heading.first?.isNumber == true {
      if let phase = DrillCommand.phase(section) {
        phases.append(phase)
      } else {
        problem("\(relative):\(section.line): “\(section.heading)” is not a phase heading; write `## N. Title — M min`")
      }
    }
    if phases.count < DrillLimits.phases {
      problem(
        "\(relative) has \(phases.count) timed phase\(phases.count == 1 ? "" : "s"); a drill has at least \(DrillLimits.phases) "
          + "(`## 1. Clarify the requirements — 5 min`)")
    }
    let minutes = phases.reduce(0) { $0 + $1.minutes }
    if !phases.isEmpty, !DrillLimits.minutes.contains(minutes) {
      problem(
        "\(relative): the phases add up to \(minutes) minutes; a drill runs \(DrillLimits.minutes.lowerBound) to "
          + "\(DrillLimits.minutes.upperBound), as an interview's design round does: change the time boxes")
    }
    let areas = DrillCommand.rubric(sections.first { $0.heading == "Rubric" }?.body ?? "")
    let points = areas.reduce(0) { $0 + $1.points }
    if points != 100 {
      problem("\(relative): the `## Rubric` table's points add up to \(points), not 100; the drill scores out of 100")
    }
    if (sections.first { $0.heading == "Red flags" }?.body ?? "").isEmpty {
      problem("\(relative) has no `## Red flags` section, or it is empty")
    }
    found += shownByProblems(relative, areas, owner: owner)
    return found
  }

  /// The `shown by` column of a drill's rubric, as the owner's kind of drill allows it.
  func shownByProblems(_ relative: String, _ areas: [DrillCommand.Area], owner: DrillOwner) -> [Problem] {
    var found: [Problem] = []
    func problem(_ area: DrillCommand.Area, _ message: String) {
      found.append(Problem(rule: .extras, message: "\(relative): the rubric row “\(area.name)”: \(message)"))
    }
    var testNames: [Int: Set<String>] = [:]
    func tests(of chapter: Chapter) -> Set<String> {
      if let names = testNames[chapter.number] { return names }
      let names = testFunctionNames(chapter)
      testNames[chapter.number] = names
      return names
    }
    var timerRows: [DrillCommand.Area] = []
    var rowsWithTests = 0
    for area in areas {
      guard let cell = area.shownBy, !cell.isEmpty else {
        problem(
          area,
          "no `shown by` cell; add a fourth column, `| area | points | full marks look like | shown by |`, that says where "
            + "the workbook's code shows what the row scores")
        continue
      }
      switch owner {
      case .chapter(let chapter):
        if cell == DrillLimits.timerRow {
          timerRows.append(area)
          if area.points > DrillLimits.timerPoints {
            problem(
              area,
              "it says `\(DrillLimits.timerRow)` and is worth \(area.points) points; that row is worth at most "
                + "\(DrillLimits.timerPoints), so the rest of the score rests on what the code shows")
          }
          continue
        }
        guard let groups = Self.shownByGroups(cell, beyond: false) else {
          problem(
            area,
            "“\(cell)” does not read as `ex. N` and backticked test names (ex. 1 `testName`, `otherTest`; ex. 3 `third`); "
              + "write it so, or `\(DrillLimits.timerRow)` for the one row on communication and time boxes")
          continue
        }
        rowsWithTests += 1
        for group in groups {
          for message in groupProblems(group, in: chapter, tests: tests(of: chapter)) { problem(area, message) }
        }
      case .beyond(let name, let reuses, let catalog):
        if cell == DrillLimits.notBuiltHere { continue }
        guard let groups = Self.shownByGroups(cell, beyond: true) else {
          problem(
            area,
            "“\(cell)” does not read as `ch. C ex. N` and backticked test names (ch. 3 ex. 2 `testName`, `otherTest`); "
              + "write it so, or `\(DrillLimits.notBuiltHere)` for a row about what no chapter builds")
          continue
        }
        rowsWithTests += 1
        for group in groups {
          let number = group.chapter ?? 0
          guard reuses.contains(number) else {
            problem(
              area,
              "it names ch. \(number), which is not in \(name)'s `reuses` (\(reuses.map(String.init).joined(separator: ", "))) "
                + "in \(DrillList.relativePath); name a chapter the drill reuses, or add \(number) there")
            continue
          }
          guard let chapter = catalog.chapters.first(where: { $0.number == number }) else {
            problem(area, "it names ch. \(number), which does not exist")
            continue
          }
          for message in groupProblems(group, in: chapter, tests: tests(of: chapter)) { problem(area, message) }
        }
      }
    }
    if timerRows.count > 1 {
      found.append(
        Problem(
          rule: .extras,
          message: "\(relative): \(timerRows.count) rubric rows say `\(DrillLimits.timerRow)` "
            + "(\(timerRows.map { "“\($0.name)”" }.joined(separator: ", "))); at most one may, the row on communication "
            + "and time boxes; point the others at tests"))
    }
    if case .beyond = owner, !areas.isEmpty, rowsWithTests < DrillLimits.rowsWithTests {
      found.append(
        Problem(
          rule: .extras,
          message: "\(relative): \(rowsWithTests) rubric row\(rowsWithTests == 1 ? " names" : "s name") tests; a drill beyond "
            + "the chapters names them in at least \(DrillLimits.rowsWithTests) (`ch. C ex. N `testName``), so the learner "
            + "sees which chapter's code shows the design"))
    }
    return found
  }

  /// What is wrong with one group of a `shown by` cell: an exercise the chapter does not have, or a
  /// name that is no function of its tests.
  func groupProblems(_ group: ShownByGroup, in chapter: Chapter, tests: Set<String>) -> [String] {
    var found: [String] = []
    let prefix = group.chapter.map { "ch. \($0) " } ?? ""
    if chapter.exercise(group.exercise) == nil {
      found.append(
        "it names \(prefix)ex. \(group.exercise), but chapter \(chapter.number) has exercises 1 to \(chapter.exercises.count) "
          + "(\(chapter.exercisesPath)); name one of those")
    }
    for test in group.tests where !tests.contains(test) {
      found.append(
        "`\(test)` (\(prefix)ex. \(group.exercise)) is not a test of \(chapter.testsPath) (no `func \(test)(` there); "
          + "name a test function that shows what the row scores")
    }
    return found
  }

  /// The groups of a `shown by` cell, separated by `;`: `ex. N` (or `ch. C ex. N` when `beyond`)
  /// followed by backticked test names separated by commas; nil when any group reads otherwise.
  static func shownByGroups(_ cell: String, beyond: Bool) -> [ShownByGroup]? {
    let pattern =
      beyond ? #"^ch\.\s*(\d+)\s+ex\.\s*(\d+)\s+(`.*)$"# : #"^()ex\.\s*(\d+)\s+(`.*)$"#
    var groups: [ShownByGroup] = []
    for part in cell.split(separator: ";", omittingEmptySubsequences: false) {
      let text = part.trimmingCharacters(in: .whitespaces)
      guard let match = matches(pattern, in: text).first, let exercise = Int(match[2]) else { return nil }
      var tests: [String] = []
      for item in match[3].split(separator: ",", omittingEmptySubsequences: false) {
        let name = item.trimmingCharacters(in: .whitespaces)
        guard name.count > 2, name.hasPrefix("`"), name.hasSuffix("`") else { return nil }
        let inner = String(name.dropFirst().dropLast())
        guard Citations.isIdentifier(inner) else { return nil }
        tests.append(inner)
      }
      groups.append(ShownByGroup(chapter: beyond ? Int(match[1]) : nil, exercise: exercise, tests: tests))
    }
    return groups
  }

  /// A drill's reference design: its description loads and its picture is what `make figures`
  /// draws from it, byte for byte.
  func referenceDesignProblems(_ folder: String) -> [Problem] {
    let description = "\(folder)/figures/\(FiguresCommand.description)"
    let drawing = "\(folder)/figures/\(FiguresCommand.drawing)"
    func problem(_ message: String) -> [Problem] { [Problem(rule: .extras, message: message)] }
    guard exists(description) else {
      return problem(
        "\(description) is missing: every drill has a reference design; describe it there (title, layers of boxes, "
          + "arrows), then run make figures")
    }
    let diagram: ArchitectureDiagram
    do {
      diagram = try ArchitectureDiagram.load(path(description, in: root))
    } catch {
      return problem("\(description) does not load: \(error); fix it, then run make figures")
    }
    guard let drawn = FileManager.default.contents(atPath: path(drawing, in: root)) else {
      return problem("\(drawing) is missing; run make figures")
    }
    if drawn != Data(diagram.svg.utf8) {
      return problem(
        "\(drawing) is not what \(description) draws (the description changed, or the picture was edited by hand); "
          + "run make figures")
    }
    return []
  }

  /// `Drills/`: `Drills/drills.json` lists exactly its folders, each entry has a title and reuses
  /// chapters that exist, and each drill and its reference design pass as a chapter's do.
  func drillsFolderProblems(_ catalog: Catalog) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .extras, message: message)) }
    let folders = subfolders("Drills")
    let list: DrillList?
    do {
      list = try DrillList.load(root: root)
    } catch {
      return [Problem(rule: .extras, message: "\(error)")]
    }
    guard let list else {
      if !folders.isEmpty {
        problem(
          "Drills/ holds \(folders.joined(separator: ", ")) but there is no \(DrillList.relativePath); list the drills there: "
            + "{ \"drills\": [ { \"name\": \"\(folders[0])\", \"title\": …, \"reuses\": [1, 2] } ] }")
      }
      return found
    }
    var seen: Set<String> = []
    for entry in list.drills {
      guard seen.insert(entry.name).inserted else {
        problem("\(DrillList.relativePath) lists \(entry.name) twice; list each drill once")
        continue
      }
      guard folders.contains(entry.name) else {
        problem(
          "\(DrillList.relativePath) lists \(entry.name), but there is no folder Drills/\(entry.name); add "
            + "Drills/\(entry.name)/drill.md, or drop it from the list")
        continue
      }
      if entry.title.trimmingCharacters(in: .whitespaces).isEmpty {
        problem("\(DrillList.relativePath): \(entry.name) has no title")
      }
      if entry.reuses.isEmpty {
        problem("\(DrillList.relativePath): \(entry.name) reuses no chapter; list in `reuses` the chapters it builds on")
      }
      for number in entry.reuses where !catalog.chapters.contains(where: { $0.number == number }) {
        problem("\(DrillList.relativePath): \(entry.name) reuses chapter \(number), which does not exist")
      }
      let file = "Drills/\(entry.name)/drill.md"
      if let text = read(file) {
        found += drillProblems(file, text: text, owner: .beyond(name: entry.name, reuses: entry.reuses, catalog: catalog))
      } else {
        problem("\(DrillList.relativePath) lists \(entry.name), but \(file) is missing; write the drill there")
      }
      found += referenceDesignProblems("Drills/\(entry.name)")
    }
    for folder in folders where !seen.contains(folder) {
      problem(
        "Drills/\(folder) is not listed in \(DrillList.relativePath); add { \"name\": \"\(folder)\", \"title\": …, "
          + "\"reuses\": [...] }, or delete the folder")
    }
    return found
  }

  /// The folders directly in `relative`, sorted, without clutter; empty when it is missing.
  func subfolders(_ relative: String) -> [String] {
    let folder = path(relative, in: root)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { name in
      var isFolder: ObjCBool = false
      return !Clutter.contains(name) && FileManager.default.fileExists(atPath: "\(folder)/\(name)", isDirectory: &isFolder)
        && isFolder.boolValue
    }.sorted()
  }
}

/// One group of a `shown by` cell: `ex. 2 `a`, `b`` or `ch. 3 ex. 2 `a``.
struct ShownByGroup: Equatable {
  /// The chapter, in a drill beyond the chapters.
  let chapter: Int?
  let exercise: Int
  let tests: [String]
}
