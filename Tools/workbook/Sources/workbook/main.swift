import Foundation
import WorkbookKit

// The whole tool lives in WorkbookKit, where its tests can reach it; see `workbook help`.
exit(WorkbookTool.main(Array(CommandLine.arguments.dropFirst())))
