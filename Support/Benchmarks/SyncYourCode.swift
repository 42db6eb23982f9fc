#if canImport(Sync)
  import Foundation
  import Sync

  /// `make bench-7`: the learner's outbox and note store next to the answer's, and next to the
  /// same bytes written by hand with `Data.write(to:options: .atomic)`.
  extension SyncBench {
    static func nanoseconds(_ duration: Duration) -> Double {
      let (seconds, attoseconds) = duration.components
      return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    /// What a throw means: the starter's "not implemented yet", or a failure of the code.
    static func outcome(of error: any Error) -> YourCode.Outcome {
      String(describing: error).contains("not implemented yet") ? .notImplemented : .wrong("it threw \(error)")
    }

    /// One round of every row, printed as `--emit` lines (see `YourCode`).
    static func emitLearnerRound(quick: Bool, withPlatform: Bool) async {
      let clock = ContinuousClock()
      let appends = quick ? 20 : 100
      for pending in quick ? Array(outboxSizes.prefix(2)) : outboxSizes {
        let url = folder()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = url.appendingPathComponent("outbox.json")
        do {
          let outbox = try Outbox(file: file)
          for edit in edits(pending) { try await outbox.append(edit) }
          let start = clock.now
          for index in 0..<appends {
            try await outbox.append(Mutation(note: "n\(index % pending)", base: 1, set: ["title": "again \(index)"]))
          }
          let elapsed = nanoseconds(start.duration(to: clock.now)) / Double(appends)
          let held = await outbox.pending.count
          YourCode.emit(
            "outbox.\(pending)",
            held == pending ? .nanoseconds(elapsed) : .wrong("\(held) edits waiting after \(appends) title edits of \(pending) notes"))
        } catch {
          YourCode.emit("outbox.\(pending)", outcome(of: error))
        }
        if withPlatform {
          let list = edits(pending)
          let start = clock.now
          for _ in 0..<appends { writeByHand(list, to: url.appendingPathComponent("by-hand.json")) }
          YourCode.emit("byhand.\(pending)", .nanoseconds(nanoseconds(start.duration(to: clock.now)) / Double(appends)))
        }
      }
      let pages = quick ? 5 : 20
      for held in quick ? Array(storeSizes.prefix(2)) : storeSizes {
        let url = folder()
        defer { try? FileManager.default.removeItem(at: url) }
        do {
          let store = try NoteStore(file: url.appendingPathComponent("notes.json"))
          try await store.apply(notes(held, version: 1), token: "t1")
          let start = clock.now
          for page in 0..<pages { try await store.apply(notes(pageSize, version: page + 2), token: "t\(page + 2)") }
          let elapsed = nanoseconds(start.duration(to: clock.now)) / Double(pages)
          let token = await store.token
          YourCode.emit("store.\(held)", token == "t\(pages + 1)" ? .nanoseconds(elapsed) : .wrong("the token after \(pages) pages is \(token ?? "nil")"))
        } catch {
          YourCode.emit("store.\(held)", outcome(of: error))
        }
      }
    }

    /// The table of `make bench-7` and its verdict.
    static func printComparison(yours: YourCode.Collected, answer: YourCode.Collected) {
      var rows: [YourCode.Comparison] = outboxSizes.compactMap { pending in
        answer.outcomes["outbox.\(pending)"] == nil
          ? nil
          : YourCode.Comparison(label: "append, \(pending) waiting", operation: "outbox", id: "outbox.\(pending)", platform: "byhand.\(pending)")
      }
      rows += storeSizes.compactMap { held in
        answer.outcomes["store.\(held)"] == nil
          ? nil : YourCode.Comparison(label: "page, \(held) held", operation: "note store", id: "store.\(held)")
      }
      YourCode.printComparison(
        yours: yours, answer: answer, rows: rows, platformName: "by hand",
        note: "ns per edit appended (the outbox) and per page of \(pageSize) changes applied (the note store), on real files",
        exercise: { $0 == "outbox" ? 1 : 3 }, chapter: 7)
    }
  }
#endif
