#if canImport(Sync)
  import Foundation
  import Sync

  /// Chapter 7: what the two durable writes of the sync engine cost on a real disk, against the
  /// same bytes written by hand. An edit rewrites the whole outbox and a page of changes rewrites
  /// the whole copy of the notes, one `.atomic` write each: the tables show what that design costs
  /// as the outbox and the copy grow.
  enum SyncBench {
    static let outboxSizes = [10, 100, 1_000]
    static let storeSizes = [100, 1_000, 10_000]
    static let pageSize = 100

    /// A fresh folder for one measurement, removed by the caller.
    static func folder() -> URL {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-bench-sync-\(UUID().uuidString)")
      try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      return url
    }

    /// `count` title edits of different notes, as the outbox holds them: a later title edit of one
    /// of those notes compacts its edit away, so the outbox keeps its size while it is timed.
    static func edits(_ count: Int) -> [Mutation] {
      (0..<count).map { Mutation(id: "m\($0)", note: "n\($0)", base: 1, set: ["title": "title of note \($0)"]) }
    }

    /// `count` notes at version `version`, as the change feed sends them.
    static func notes(_ count: Int, version: Int) -> [NoteRecord] {
      (0..<count).map { NoteRecord(id: "n\($0)", version: version, fields: ["title": "title \($0)", "body": "body of note \($0) v\(version)"]) }
    }

    /// An outbox on a real disk holding `pending` edits; `appends` more edits then each cost one write.
    static func outbox(pending: Int) async -> (Outbox, URL)? {
      let url = folder()
      guard let outbox = try? Outbox(file: url.appendingPathComponent("outbox.json")) else { return nil }
      for edit in edits(pending) { try? await outbox.append(edit) }
      return (outbox, url)
    }

    /// The same bytes the outbox writes for an append with `pending` edits waiting, written by hand.
    static func writeByHand(_ list: [Mutation], to url: URL) {
      let data = (try? SyncJSON.encoder().encode(list)) ?? Data()
      try? data.write(to: url, options: .atomic)
    }

    static func run(_ bench: Bench, quick: Bool) async {
      print("\n== Chapter 7: the sync engine's durable writes (real files, .atomic)")
      let appends = quick ? 20 : 100
      var outboxRows: [Row] = []
      var handRows: [Row] = []
      for pending in quick ? Array(outboxSizes.prefix(2)) : outboxSizes {
        guard let (outbox, url) = await outbox(pending: pending) else { continue }
        defer { try? FileManager.default.removeItem(at: url) }
        let existing = await outbox.pending
        // Each append sets the title of a note already waiting: compaction replaces one field, and
        // the outbox keeps its size.
        let append = await bench.median {
          for index in 0..<appends {
            try? await outbox.append(Mutation(note: "n\(index % pending)", base: 1, set: ["title": "again \(index)"]))
          }
        }
        let byHand = bench.median {
          for _ in 0..<appends { writeByHand(existing, to: url.appendingPathComponent("by-hand.json")) }
        }
        outboxRows.append(Row(label: "Outbox.append, \(pending) waiting", time: append, operations: appends))
        handRows.append(Row(label: "the same bytes by hand, \(pending)", time: byHand, operations: appends))
      }
      if let first = outboxRows.first {
        printTable(
          "an edit into the outbox: one atomic write of the whole list", baseline: first, rows: Array(outboxRows.dropFirst()) + handRows,
          note: "grows with the edits waiting, which compaction keeps near one per note and field")
      }

      let pages = quick ? 5 : 20
      var storeRows: [Row] = []
      for held in quick ? Array(storeSizes.prefix(2)) : storeSizes {
        let url = folder()
        defer { try? FileManager.default.removeItem(at: url) }
        guard let store = try? NoteStore(file: url.appendingPathComponent("notes.json")) else { continue }
        try? await store.apply(notes(held, version: 1), token: "t1")
        var version = 1
        let apply = await bench.median {
          for _ in 0..<pages {
            version += 1
            try? await store.apply(notes(pageSize, version: version), token: "t\(version)")
          }
        }
        storeRows.append(Row(label: "NoteStore.apply, \(held) notes held", time: apply, operations: pages))
      }
      if let first = storeRows.first {
        printTable(
          "a page of \(pageSize) changes and its token: one atomic write of the whole copy", baseline: first,
          rows: Array(storeRows.dropFirst()), note: "grows with the notes held: the copy is one file, written whole")
      }
    }
  }
#endif
