# iOS Systems Workbook — the learner's and the maintainer's front door. `make help` lists it all.
#
# The interface below is a contract: later chapters add to it, nothing renames it.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.SUFFIXES:

SWIFT ?= swift
# The engine SwiftPM builds with: BUILD_SYSTEM=swiftbuild (Swift Build, the default from Swift 6.4,
# Xcode 27) or BUILD_SYSTEM=native (the default before). Left unset, the toolchain's own default,
# as in the learner's Xcode. The tool's builds (grading, mutants, variants) use the same engine.
BUILD_SYSTEM ?=
export WORKBOOK_BUILD_SYSTEM := $(BUILD_SYSTEM)
ENGINE := $(if $(BUILD_SYSTEM),--build-system $(BUILD_SYSTEM))
# Tools/swiftpm.sh runs a build once more when the build engine itself crashed (see there).
SWIFTPM := Tools/swiftpm.sh
SWIFT_BUILD := $(SWIFTPM) $(SWIFT) build $(ENGINE)
SWIFT_TEST := $(SWIFTPM) $(SWIFT) test $(ENGINE)
SWIFT_RUN := $(SWIFT) run $(ENGINE)
# Where a build puts its products: $(call bin-path,SCRATCH[,MORE ARGUMENTS]), asked of SwiftPM in
# the recipe that needs it. The engines lay a scratch folder out differently (`debug/` for one,
# `out/Products/Debug-linux/` for the other), so no product path is written here.
bin-path = $$($(SWIFT) build $(ENGINE) --scratch-path $(1) $(2) --show-bin-path)
TOOL_SCRATCH := .build/tools
# The tool's path is needed to decide whether to rebuild it, so it is asked once, as make starts.
TOOL_BIN := $(shell $(SWIFT) build $(ENGINE) --package-path Tools/workbook --scratch-path $(TOOL_SCRATCH) --show-bin-path 2>/dev/null)
WORKBOOK := $(if $(TOOL_BIN),$(TOOL_BIN)/workbook,$(TOOL_SCRATCH)/no-bin-path/workbook)
export WORKBOOK_TOOL := $(WORKBOOK)
TOOL_SOURCES := Tools/workbook/Package.swift $(shell find Tools/workbook/Sources -name '*.swift')
# Every chapter folder, such as 01-data-store, and its number.
CHAPTER_DIRS := $(sort $(patsubst Chapters/%/exercises.json,%,$(wildcard Chapters/*/exercises.json)))
CHAPTER_NUMBERS := $(foreach d,$(CHAPTER_DIRS),$(patsubst 0%,%,$(firstword $(subst -, ,$(d)))))

ANSWERS ?=
REFERENCE ?=
CHAPTER ?=
EXERCISE ?=
SANITIZE ?=
GRADE_FLAGS := $(if $(filter 1 yes true,$(ANSWERS)),--answers) $(if $(REFERENCE),--reference $(REFERENCE)) $(if $(EXERCISE),--exercise $(EXERCISE)) $(if $(filter 1 yes true,$(SANITIZE)),--sanitize)
LINT_PATHS := Package.swift answers Support Tests Tools
# The swift format whose rules and layout the code is written to (Swift 6.3.1's). Another version
# (the one in a learner's Xcode) may lay code out differently, so `make test` lints only with this one.
SWIFT_FORMAT_PINNED := 6.3.1

UNAME := $(shell uname -s)
# macOS 15 is the first with the Synchronization library (`Mutex`): on an older Mac, make stops
# before building anything. `make requirements MACOS_VERSION=14.6` tries the check on any system.
MACOS_VERSION ?= $(if $(filter Darwin,$(UNAME)),$(shell sw_vers -productVersion 2>/dev/null))
# The sanitizer's suppressions are for Linux's `Mutex`, whose locking it cannot see; on macOS it
# sees it, and the suppressions would only hide real races. The path is quoted for the sanitizer,
# so a checkout whose path has spaces works.
TSAN_SUPPRESSIONS := $(if $(filter Linux,$(UNAME)),suppressions='$(CURDIR)/Tools/tsan-suppressions.txt' )
# macOS gives a process 256 open files by default. The test runs stay well under it (see
# CONTRIBUTING.md), and the recipes that run tests raise the soft limit to 4096 where the shell may.
RAISE_FILE_LIMIT := n=$$(ulimit -Sn); if [ "$$n" != unlimited ] && [ "$$n" -lt 4096 ]; then ulimit -Sn 4096 2>/dev/null || ulimit -Sn "$$(ulimit -Hn)" 2>/dev/null || true; fi;

.PHONY: help tool requirements progress lint sanitize mutants variants fingerprints test test-nonsending test-app-target test-swiftbuild check check-tooling server bench drill figures demo demo-sync clean

# `make help` prints the table below: each `target: ## what it does` line, the `##` lines under
# it (options, aligned by hand), and the `##@` section headings; {chapters} reads the chapter numbers.
help:
	@echo "iOS Systems Workbook"
	@awk -v chapters="$(CHAPTER_NUMBERS)" ' \
	  /^##@/ { printf "\n%s:\n", substr($$0, 5); next } \
	  /^[a-z%-]+:.* ## / { name = $$0; sub(/:.*/, "", name); gsub(/%/, "N", name); \
	    text = $$0; sub(/^[^#]* ## /, "", text); gsub(/\{chapters\}/, chapters, text); \
	    printf "  make %-20s %s\n", name, text; next } \
	  /^##  / { print "  " substr($$0, 3) }' $(firstword $(MAKEFILE_LIST))
	@echo ""
	@echo "Chapters:"
	@for d in $(CHAPTER_DIRS); do echo "  $$d"; done

tool: $(WORKBOOK)

# Before the first build, and before every command that needs the tool.
requirements:
	@case "$(MACOS_VERSION)" in \
	  "" | 1[5-9] | 1[5-9].* | [2-9][0-9] | [2-9][0-9].*) ;; \
	  *) echo "macOS 15 or later is required: this Mac runs macOS $(MACOS_VERSION). The workbook's locks are" \
	       "Mutex, from the Synchronization library, which macOS 15 was the first to ship. Update macOS" \
	       "(System Settings > General > Software Update), then run make again." >&2; exit 1 ;; \
	esac
	@command -v $(SWIFT) >/dev/null || { echo "make: there is no \`$(SWIFT)\` command on PATH. Install Xcode 26 or later (Xcode 27 ships" \
	  "Swift 6.4) and open it once, or on Linux a Swift 6.2 or later toolchain from swift.org; then run make again." >&2; exit 1; }

$(WORKBOOK): $(TOOL_SOURCES) | requirements
	@Tools/build-tool.sh $@ $(SWIFT_BUILD) --package-path Tools/workbook --scratch-path $(TOOL_SCRATCH)

##@ Learn
chapter-%: $(WORKBOOK) ## build and grade your code for chapter N (N = {chapters})
##      ANSWERS=1           grade the reference answers instead
##      EXERCISE=E          show exercise E's failure and hint (or that it passes); the exit
##                          status is then exercise E's alone
##      REFERENCE=3,4       with the reference answers of chapters 3 and 4, for a chapter that
##                          composes them (the capstone): name only those you have not done
##      SANITIZE=1          grade under the thread sanitizer: slower, and a data race in your
##                          code fails its exercise with the sanitizer's report
	@$(RAISE_FILE_LIMIT) $(WORKBOOK) grade $* $(GRADE_FLAGS)

# `make hint-N` builds nothing: it reads what the last `make chapter-N` found, with the REFERENCE=
# that grading used (a REFERENCE= given here only gets a note when it differs).
hint-%: $(WORKBOOK) ## the next tier of the hint for your last make chapter-N's first failure (builds nothing)
##      EXERCISE=E          the hint for exercise E
	@$(WORKBOOK) hint $* $(if $(EXERCISE),--exercise $(EXERCISE)) $(if $(REFERENCE),--reference $(REFERENCE))

watch-%: $(WORKBOOK) ## re-grade chapter N every time you save (takes REFERENCE= too)
	@$(RAISE_FILE_LIMIT) $(WORKBOOK) watch $* $(if $(REFERENCE),--reference $(REFERENCE))

compare-%: $(WORKBOOK) ## diff your chapter N against the reference answer
	@$(WORKBOOK) compare $*

reset-%: $(WORKBOOK) ## put chapter N's starter back (your code is saved aside first)
	@$(WORKBOOK) reset $*

walkthrough-%: $(WORKBOOK) ## interview practice, one question at a time, rated as you go; run again, it resumes
##      FROM=K              start at question K, rated or not (FROM=1 starts over); s skips a question
##      TIMED=1             a two-minute countdown per answer (see `make review`)
	@$(WORKBOOK) walkthrough $* $(if $(FROM),--from $(FROM))

progress: $(WORKBOOK) ## every chapter: exercises, and interview questions seen, due and learned
	@$(WORKBOOK) progress

.PHONY: review flashcards
review: $(WORKBOOK) ## the interview questions due again (SM-2 spacing), weakest first, then new ones
##      CHAPTER=N           one chapter's questions
##      LIMIT=K             at most K questions this time, due ones first
##      NEW=K               at most K never-rated questions a calendar day (default 5; 0: none)
##      TIMED=1             a countdown while you answer: 1 is two minutes; or 90 (seconds),
##                          3m, 1m30s (make walkthrough-N TIMED=1 works too)
	@$(WORKBOOK) review $(if $(CHAPTER),--chapter $(CHAPTER)) $(if $(LIMIT),--limit $(LIMIT)) $(if $(NEW),--new $(NEW)) $(if $(TIMED),--timed $(TIMED))

flashcards: $(WORKBOOK) ## every interview question as an Anki deck, one per chapter: .workbook/flashcards.txt
	@$(WORKBOOK) flashcards

server: requirements ## the local practice API server, to poke with curl (chapter 3 on); Ctrl-C stops it
	@WORKBOOK_CHAPTERS=none $(SWIFT_RUN) --scratch-path .build/server practice-server $(SERVER_FLAGS)

# `make drill-6` runs chapter 6's drill, `make drill-chat` one of Drills/drills.json.
drill-%: $(WORKBOOK) ## a mock system-design round, marked signal by signal: N = {chapters}, or chat, upload, analytics, assistant
##      SEED=K              repeat a round's choice of deep dive
##      ANSWERS=file        score answers written in a file, no terminal (a template if it is missing)
##      ROLE=interviewer    the kit for a peer who plays the interviewer: card, keys, probes, scorecard
##      KEY=1               after a missed decision, show the scenario's key (choice, reason, arithmetic)
	@$(WORKBOOK) drill $* $(if $(ANSWERS),--answers '$(ANSWERS)') $(if $(ROLE),--role '$(ROLE)') $(if $(KEY),--key)

drill: $(WORKBOOK) ## every design drill: its length in minutes and your last result
	@$(WORKBOOK) drill

# `make demo` builds the feed twice, like `make bench-N`: from your chapters (the capstone and
# the chapters its exercises.json composes; REFERENCE= swaps in answers/ for those it names) and
# from answers/ alone. The two have the same module names, so one program cannot hold both: your
# build runs the script first and writes its counts, and the reference build runs it again and
# prints both. Tools/demo-ready.sh first checks, building nothing, that each chapter of yours
# passed its last grading and has not changed since; with REFERENCE= naming them all, only the
# reference is built and run.
comma := ,
empty :=
space := $(empty) $(empty)
FEED_CHAPTERS := $(sort 6 $(shell sed -n 's/.*"composes": *\[\([0-9, ]*\)\].*/\1/p' Chapters/06-feed/exercises.json | tr ',' ' '))
DEMO_REFERENCE := $(sort $(subst $(comma),$(space),$(REFERENCE)))
DEMO_YOURS := $(filter-out $(DEMO_REFERENCE),$(FEED_CHAPTERS))
DEMO_YOURS_SCRATCH := .build/demo/yours$(if $(DEMO_REFERENCE),-reference-$(subst $(space),-,$(DEMO_REFERENCE)))
DEMO_COUNTS := .build/demo/your-counts.txt
demo: requirements ## your capstone feed (your chapters 1, 3, 4, 6) live against the practice server,
##                          then the reference answers on the same script, and the counts side by side
##      REFERENCE=3,4       the reference answers of these chapters in place of yours
##                          (REFERENCE=1,3,4,6: the reference feed alone, run once)
	@Tools/demo-ready.sh "$(FEED_CHAPTERS)" "$(REFERENCE)"
	@echo "== building the demo$(if $(DEMO_YOURS), from your code and from answers/,) (the first build takes minutes)"
	@if [ -n "$(DEMO_YOURS)" ]; then \
	  WORKBOOK_CHAPTERS=6 WORKBOOK_ANSWERS=$(subst $(space),$(comma),$(DEMO_REFERENCE)) WORKBOOK_TOOLS=1 $(SWIFT_BUILD) \
	    --scratch-path $(DEMO_YOURS_SCRATCH) --product feed-demo -q 2>&1 | grep -v '^\['; \
	  test $${PIPESTATUS[0]} -eq 0 || { echo "make demo: your code does not build; make chapter-6 shows why" >&2; exit 1; }; fi
	@WORKBOOK_CHAPTERS=6 WORKBOOK_ANSWERS=all WORKBOOK_TOOLS=1 $(SWIFT_BUILD) --scratch-path .build/demo/reference --product feed-demo -q 2>&1 \
	  | grep -v '^\['; test $${PIPESTATUS[0]} -eq 0 || { echo "make demo: the reference feed in answers/ did not build (above), so the demo cannot run;" \
	    "your code is not part of that build. make clean, then make demo again; if it fails again, the workbook has a bug to report" >&2; exit 1; }
	@reference="$(call bin-path,.build/demo/reference)/feed-demo"; \
	if [ -z "$(DEMO_YOURS)" ]; then "$$reference" $(DEMO_FLAGS); exit; fi; \
	rm -f $(DEMO_COUNTS); \
	"$(call bin-path,$(DEMO_YOURS_SCRATCH))/feed-demo" --counters $(DEMO_COUNTS) $(DEMO_FLAGS); status=$$?; \
	if [ $$status -ne 0 ] || [ ! -f $(DEMO_COUNTS) ]; then \
	  echo "make demo: your feed stopped before the end of the script (exit status $$status); make chapter-6 grades it," \
	    "and make demo REFERENCE=$(subst $(space),$(comma),$(FEED_CHAPTERS)) shows the reference" >&2; exit 1; fi; \
	echo ""; "$$reference" --quiet --compare $(DEMO_COUNTS)

# `make demo-sync` builds the sync demo twice, like `make demo`: from your chapter 7 (with the
# reference chapter 3 it composes, unless YOURS=3,7 asks for yours too) and from answers/. Your
# build runs the script and writes its transcript; the reference build runs it again and says
# where the two transcripts part, if they do.
SYNC_DEMO_YOURS := $(if $(YOURS),$(filter-out $(subst $(comma),$(space),$(YOURS)),3 7),3)
demo-sync: requirements ## two devices syncing notes through the practice server, your chapter 7
##                          then the reference on the same script, the transcripts compared
##      YOURS=3,7           your chapter 3 too (by default the reference chapter 3 is used)
	@echo "== building the sync demo from your code and from answers/ (the first build takes minutes)"
	@WORKBOOK_CHAPTERS=7 WORKBOOK_ANSWERS=$(subst $(space),$(comma),$(strip $(SYNC_DEMO_YOURS))) WORKBOOK_TOOLS=1 $(SWIFT_BUILD) \
	  --scratch-path .build/demo-sync/yours --product sync-demo -q 2>&1 | grep -v '^\['; \
	  test $${PIPESTATUS[0]} -eq 0 || { echo "make demo-sync: your code does not build; make chapter-7 shows why" >&2; exit 1; }
	@WORKBOOK_CHAPTERS=7 WORKBOOK_ANSWERS=all WORKBOOK_TOOLS=1 $(SWIFT_BUILD) --scratch-path .build/demo-sync/reference --product sync-demo -q 2>&1 \
	  | grep -v '^\['; test $${PIPESTATUS[0]} -eq 0 || { echo "make demo-sync: the reference in answers/ did not build (above);" \
	    "your code is not part of that build. make clean, then make demo-sync again" >&2; exit 1; }
	@mkdir -p .build/demo-sync; rm -f .build/demo-sync/yours.txt; echo "== your engine"; \
	"$(call bin-path,.build/demo-sync/yours)/sync-demo" --transcript .build/demo-sync/yours.txt; status=$$?; \
	if [ ! -f .build/demo-sync/yours.txt ]; then echo "make demo-sync: your engine stopped before the end of the script" \
	  "(exit status $$status); make chapter-7 grades it" >&2; exit 1; fi; \
	echo ""; echo "== the reference answer, on the same script"; \
	"$(call bin-path,.build/demo-sync/reference)/sync-demo" --compare .build/demo-sync/yours.txt; \
	test $$status -eq 0 || { echo "make demo-sync: your devices did not converge (above)" >&2; exit 1; }

##@ Maintain
test: $(WORKBOOK) ## the gate: the tool's tests and rules (make check), the answers pass with
##                          no warnings, every exercise fails on the starter, the tooling trials, lint
##                          (lint only with the pinned swift format, 6.3.1)
	@echo "== tool: its own tests, then the workbook's rules (workbook check)"
	@$(SWIFT_TEST) --package-path Tools/workbook --scratch-path $(TOOL_SCRATCH) -q 2>&1 \
	  | grep -Ev '^\[|^◇ |^↳ |^✔ (Test "|Suite )|^Test Suite |Executed 0 tests|CoreFoundation: failed to dynamically link'; test $${PIPESTATUS[0]} -eq 0
	@$(WORKBOOK) check
	@echo "== answers: build with warnings as errors, then every test"
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 $(SWIFT_BUILD) --build-tests --scratch-path .build/answers
	@$(RAISE_FILE_LIMIT) set -x; WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 $(SWIFT_TEST) --skip-build --scratch-path .build/answers
	@$(MAKE) --no-print-directory test-nonsending
	@$(MAKE) --no-print-directory test-app-target
	@$(MAKE) --no-print-directory test-swiftbuild
	@echo "== starter: compiles, never crashes, and every exercise has a failing test"
	@$(RAISE_FILE_LIMIT) $(WORKBOOK) check-starter
	@echo "== tooling"
	@$(RAISE_FILE_LIMIT) Tools/check-tooling.sh
	@echo "== lint (with swift format $(SWIFT_FORMAT_PINNED) only)"
	@$(MAKE) --no-print-directory lint LINT_PINNED_ONLY=1

test-nonsending: requirements ## the answers again with NonisolatedNonsendingByDefault (SE-0461) on:
##                          a nonisolated async function runs on its caller's actor unless @concurrent
	@echo "== answers with NonisolatedNonsendingByDefault: build with warnings as errors, then every test"
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 WORKBOOK_NONSENDING=1 $(SWIFT_BUILD) --build-tests --scratch-path .build/answers-nonsending
	@$(RAISE_FILE_LIMIT) set -x; WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 WORKBOOK_NONSENDING=1 $(SWIFT_TEST) --skip-build --scratch-path .build/answers-nonsending

# Swift 6.4's SwiftPM (Xcode 27) builds with Swift Build by default, and Swift 6.2 and 6.3 have the
# same engine behind --build-system swiftbuild: the tool's tests and the answers' suite run once
# more under it, each in scratch folders of their own. (A learner's BUILD_SYSTEM= changes every
# command; this lane names the engine itself, so `make test` proves both on any toolchain.)
SWIFTBUILD_SCRATCH := .build/swiftbuild
test-swiftbuild: requirements ## the tool's tests and the answers' suite under Swift Build, the engine
##                          Swift 6.4 (Xcode 27) builds with by default
	@echo "== under Swift Build (--build-system swiftbuild): the tool's tests"
	@$(SWIFTPM) $(SWIFT) test --build-system swiftbuild --package-path Tools/workbook --scratch-path $(SWIFTBUILD_SCRATCH)/tools -q 2>&1 \
	  | grep -Ev '^\[|^◇ |^↳ |^✔ (Test "|Suite )|^Test Suite |Executed 0 tests|CoreFoundation: failed to dynamically link'; test $${PIPESTATUS[0]} -eq 0
	@echo "== under Swift Build: the answers, built with warnings as errors, then every test"
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 $(SWIFTPM) $(SWIFT) build --build-system swiftbuild --build-tests --scratch-path $(SWIFTBUILD_SCRATCH)/answers
	@$(RAISE_FILE_LIMIT) set -x; WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 $(SWIFTPM) $(SWIFT) test --build-system swiftbuild --skip-build --scratch-path $(SWIFTBUILD_SCRATCH)/answers

# A new app target of Xcode 26 or 27 compiles with default isolation MainActor (SE-0466) and
# Approachable Concurrency, which Swift 6.3 and later spell as one upcoming feature,
# ApproachableConcurrency: beyond Swift 6 mode it turns on NonisolatedNonsendingByDefault and
# InferIsolatedConformances. WORKBOOK_APP_TARGET=1 compiles every chapter module that way, so the
# build proves that the `nonisolated` annotations chapter 1 tells a learner to write are enough;
# the support code and the tests are not main-actor by default, and get NonisolatedNonsendingByDefault
# only (a test conforming to a chapter's protocol must read its function types the same way). The
# tests then run against those modules. Last, chapter 1's answer with its `nonisolated` stripped
# must fail to type-check with the errors its README quotes: the annotations are needed, not only
# enough.
APP_TARGET_BARE := .build/answers-app-target/without-nonisolated
test-app-target: requirements ## the answers as a new Xcode 26 or 27 app target compiles them: default
##                          isolation MainActor (SE-0466) and Approachable Concurrency
	@echo "== answers as an app target (default isolation MainActor): build with warnings as errors, then every test"
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_APP_TARGET=1 $(SWIFT_BUILD) --build-tests --scratch-path .build/answers-app-target
	@$(RAISE_FILE_LIMIT) set -x; WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_APP_TARGET=1 $(SWIFT_TEST) --skip-build --scratch-path .build/answers-app-target
	@echo "== chapter 1's answer without its nonisolated annotations, as an app target: it must not build"
	@rm -rf $(APP_TARGET_BARE) && mkdir -p $(APP_TARGET_BARE) && \
	  for f in answers/DataStore/*.swift; do sed -E 's/^((public|private|fileprivate) )?nonisolated /\1/' "$$f" > "$(APP_TARGET_BARE)/$${f##*/}"; done && \
	  echo 'nonisolated func offTheMainActor(_ store: LockedStore<String, Int>) -> Int? { store.get("k") }' > $(APP_TARGET_BARE)/Probe.swift
	@bin="$(call bin-path,.build/answers-app-target)"; modules="$$(dirname "$$(find "$$bin" -maxdepth 2 -name Workbook.swiftmodule | head -n 1)")"; \
	features="ApproachableConcurrency"; \
	case "$$($(SWIFT)c --version 2>&1)" in *"Swift version 6.2"*) features="NonisolatedNonsendingByDefault InferIsolatedConformances" ;; esac; \
	if $(SWIFT)c -typecheck -continue-building-after-errors -swift-version 6 -default-isolation MainActor \
	    $$(printf -- ' -enable-upcoming-feature %s' $$features) \
	    -I "$$modules" -module-name DataStore $(APP_TARGET_BARE)/*.swift > $(APP_TARGET_BARE)/errors.txt 2>&1; then \
	  echo "chapter 1's stores build as an app target without nonisolated: its README says they do not" >&2; exit 1; fi
	@for error in "main actor-isolated property 'storage' can not be mutated from a Sendable closure" \
	    "main actor-isolated conformance of 'Session' to 'Decodable'" "call to main actor-isolated instance method 'get'"; do \
	  grep -qF "$$error" $(APP_TARGET_BARE)/errors.txt || { cat $(APP_TARGET_BARE)/errors.txt >&2; \
	    echo "expected the error chapter 1's README quotes: $$error" >&2; exit 1; }; done

check: $(WORKBOOK) ## the workbook's own rules: titles, suites, hints, given files, mutants, interviews
	@$(WORKBOOK) check

fingerprints: $(WORKBOOK) ## after editing a starter: rewrite Chapters/*/starter.fingerprints (make check asks)
	@$(WORKBOOK) fingerprint

mutants: $(WORKBOOK) ## every classic mistake in Chapters/*/mutants is caught by a test
##      CHAPTER=N           one chapter's mutants
##      MUTANTS=40,41       only these (the number each file name starts with)
##      ALL_TESTS=1         each against the whole suite, not its recorded killers first
	@$(RAISE_FILE_LIMIT) $(WORKBOOK) mutants $(CHAPTER) $(if $(MUTANTS),--only $(MUTANTS)) $(if $(ALL_TESTS),--all-tests)

variants: $(WORKBOOK) ## every other correct solution in Chapters/*/variants passes every test
##      CHAPTER=N           one chapter's variants
##      VARIANTS=40,41      only these (the number each file name starts with)
	@$(RAISE_FILE_LIMIT) $(WORKBOOK) variants $(CHAPTER) $(if $(VARIANTS),--only $(VARIANTS))

sanitize: requirements ## the answers' tests under the thread sanitizer (suppressions on Linux only)
	@$(RAISE_FILE_LIMIT) set -x; TSAN_OPTIONS="$(TSAN_SUPPRESSIONS)halt_on_error=0" \
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all $(SWIFT_TEST) --sanitize=thread --no-parallel --scratch-path .build/sanitize

# With LINT_PINNED_ONLY=1 (as `make test` runs it), a swift format other than the pinned one
# prints a note and lints nothing; `make lint` alone lints with whatever swift format there is.
lint: ## swift format lint on answers, tests and tooling, as .swift-format says
	@version="$$($(SWIFT) format --version 2>/dev/null)"; \
	if [ "$$version" != "$(SWIFT_FORMAT_PINNED)" ]; then \
	  what="swift format $$version is not $(SWIFT_FORMAT_PINNED), the version the layout is pinned to"; \
	  [ -n "$$version" ] || what="there is no swift format; the layout is pinned to swift format $(SWIFT_FORMAT_PINNED)"; \
	  if [ -n "$(LINT_PINNED_ONLY)" ]; then echo "lint: skipped: $$what (make lint lints anyway)"; exit 0; fi; \
	  echo "lint: note: $$what, so findings may differ"; \
	fi; \
	$(SWIFT) format lint --configuration .swift-format --strict --recursive --parallel $(LINT_PATHS) && echo "lint: clean"

# `make bench` records each section's output, headed by the date, the machine, its load and the
# toolchain, in the chapter's bench/ folder: the texts' figures cite rows of those files, and
# `workbook check` compares them. A --quick run (one round) only prints.
BENCH_SECTIONS := datastore=01-data-store imagecache=04-image-cache downloads=05-downloads sync=07-sync
bench: ## release-build benchmarks behind the chapters' performance claims, recorded in Chapters/NN-*/bench/
##      BENCH_FLAGS="datastore --quick"   one section (datastore, imagecache, downloads); --quick: print only
	@WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_TOOLS=1 $(SWIFT_BUILD) -c release --scratch-path .build/bench \
	  --product workbook-bench 2>&1 | grep -Ev '^\[|^Building|^Build complete|^Compiling|^Write'; \
	  test $${PIPESTATUS[0]} -eq 0 || { echo "make bench: the answers did not build in release (above)" >&2; exit 1; }
	@bench="$(call bin-path,.build/bench,-c release)/workbook-bench"; \
	flags=""; wanted=""; \
	for word in $(BENCH_FLAGS); do case "$$word" in --*) flags="$$flags $$word" ;; *) wanted="$$wanted $$word" ;; esac; done; \
	for word in $$wanted; do \
	  case " $(BENCH_SECTIONS) " in *" $$word="*) ;; *) "$$bench" $$word; exit 2 ;; esac; \
	done; \
	stamp="$$(date -u +%Y%m%d-%H%M)-$$(uname -s | tr A-Z a-z)-$$(uname -m)"; \
	cpu="$$( (sysctl -n machdep.cpu.brand_string 2>/dev/null || sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null) | head -1)"; \
	for pair in $(BENCH_SECTIONS); do \
	  section="$${pair%%=*}"; folder="Chapters/$${pair#*=}/bench"; \
	  case " $$wanted " in "  ") ;; *" $$section "*) ;; *) continue ;; esac; \
	  case " $$flags " in *" --quick "*) "$$bench" $$flags $$section || exit $$?; continue ;; esac; \
	  mkdir -p "$$folder"; record="$$folder/$$stamp.txt"; \
	  { echo "# make bench BENCH_FLAGS=$$section"; \
	    echo "# date: $$(date -u +%Y-%m-%dT%H:%MZ)"; \
	    echo "# machine: $$(uname -sm), $$(getconf _NPROCESSORS_ONLN) cores, $${cpu:-unknown processor}"; \
	    echo "# load before the run: $$(uptime | sed 's/.*load average[s]*: //')"; \
	    echo "# toolchain: $$($(SWIFT) --version 2>&1 | grep -m1 -i 'swift')"; \
	    echo; } > "$$record.part"; \
	  "$$bench" $$flags $$section | tee -a "$$record.part"; \
	  test $${PIPESTATUS[0]} -eq 0 || { rm -f "$$record.part"; exit 1; }; \
	  mv "$$record.part" "$$record"; echo "== recorded in $$record"; \
	done

# `make bench-N` builds the bench twice, from your Sources/ and from answers/ (the two modules
# have the same name, so one program cannot hold both), and the answer's copy runs both in turns.
# Each chapter builds in folders of its own: a module left in the folder by another chapter's
# build would make the bench compile code for it that is then not linked.
BENCH_SCRATCH ?= .build
bench-%: requirements ## your chapter N timed next to the reference answer and the platform (N = 1, 4, 5, 7)
##      ANSWERS=1           time the reference answer against itself (what the ratios look like)
##      QUICK=1             smaller sizes and fewer rounds
	@case "$*" in 1|4|5|7) ;; *) echo "make bench-$*: only chapters 1, 4, 5 and 7 time your code so far; make bench times every chapter's answers" >&2; exit 2 ;; esac
	@echo "== building the bench from your Sources/ and from answers/ (release; the first time takes minutes)"
	@WORKBOOK_CHAPTERS=$* WORKBOOK_TOOLS=1 $(if $(filter 1 yes true,$(ANSWERS)),WORKBOOK_ANSWERS=$*) $(SWIFT_BUILD) -c release \
	  --scratch-path $(BENCH_SCRATCH)/bench-$*-yours --product workbook-bench 2>&1 | grep -Ev '^\[|^Building|^Build complete|^Compiling|^Write'; \
	  test $${PIPESTATUS[0]} -eq 0 || { echo "your chapter $* does not build in release: make chapter-$* shows why" >&2; exit 1; }
	@WORKBOOK_CHAPTERS=$* WORKBOOK_ANSWERS=$* WORKBOOK_TOOLS=1 $(SWIFT_BUILD) -c release \
	  --scratch-path $(BENCH_SCRATCH)/bench-$*-answer --product workbook-bench 2>&1 | grep -Ev '^\[|^Building|^Build complete|^Compiling|^Write'; \
	  test $${PIPESTATUS[0]} -eq 0 || { echo "make bench-$*: the reference answer did not build in release (above); your code is not" \
	    "part of that build. make clean, then make bench-$* again; if it fails again, the workbook has a bug to report" >&2; exit 1; }
	@"$(call bin-path,$(BENCH_SCRATCH)/bench-$*-answer,-c release)/workbook-bench" --compare $* \
	  --yours "$(call bin-path,$(BENCH_SCRATCH)/bench-$*-yours,-c release)/workbook-bench" \
	  $(if $(filter 1 yes true,$(QUICK)),--quick)

figures: $(WORKBOOK) ## redraw the SVG figures: the charts from seeded simulations, and each
##                          drill's figures/reference-design.json to the reference-design.svg beside it
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_TOOLS=1 $(SWIFT_RUN) --scratch-path .build/answers workbook-figures $(CURDIR)
	@$(WORKBOOK) figures

# The trials `make test` runs, after actionlint on .github/workflows (installed into .build/ on
# first use; skipped with a note when it cannot be, unless CI=true).
check-tooling: $(WORKBOOK)
	@Tools/check-tooling.sh --workflows
	@Tools/check-review.sh

clean:
	rm -rf .build .mutant

# `make conformance`: chapter 5's answers against real servers (needs nginx and python3; the
# script says how to install a missing one and fails rather than skip).
.PHONY: conformance
conformance: requirements ## chapter 5's answers against nginx and Python's http.server on loopback
	@SWIFT="$(SWIFT)" Tools/conformance.sh
