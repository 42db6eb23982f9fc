# iOS Systems Workbook — the learner's and the maintainer's front door. `make help` lists it all.
#
# The interface below is a contract: later chapters add to it, nothing renames it.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.SUFFIXES:

SWIFT ?= swift
TOOL_SCRATCH := .build/tools
WORKBOOK := $(TOOL_SCRATCH)/debug/workbook
TOOL_SOURCES := $(wildcard Tools/workbook/Package.swift Tools/workbook/Sources/workbook/*.swift)
# Every chapter folder, such as 01-data-store, and the module each one builds.
CHAPTER_DIRS := $(sort $(patsubst Chapters/%/exercises.json,%,$(wildcard Chapters/*/exercises.json)))
CHAPTER_NUMBERS := $(foreach d,$(CHAPTER_DIRS),$(patsubst 0%,%,$(firstword $(subst -, ,$(d)))))

ANSWERS ?=
REFERENCE ?=
CHAPTER ?=
EXERCISE ?=
SANITIZE ?=
GRADE_FLAGS := $(if $(filter 1 yes true,$(ANSWERS)),--answers) $(if $(REFERENCE),--reference $(REFERENCE)) $(if $(EXERCISE),--exercise $(EXERCISE)) $(if $(filter 1 yes true,$(SANITIZE)),--sanitize)
LINT_PATHS := Package.swift answers Support Tests Tools

.PHONY: help tool progress lint sanitize mutants test check-tooling server bench drill figures demo clean

help: ## list every command
	@echo "iOS Systems Workbook"
	@echo ""
	@echo "Learn:"
	@echo "  make chapter-N        build and grade your code for chapter N (N = $(CHAPTER_NUMBERS))"
	@echo "  make chapter-N ANSWERS=1   grade the reference answers instead"
	@echo "  make chapter-N EXERCISE=E  show exercise E's failure and hint (or that it passes);"
	@echo "                        the exit status is then exercise E's alone"
	@echo "  make chapter-6 REFERENCE=1,3,4  the capstone with the reference answers of the chapters"
	@echo "                        it composes (name only those you have not done)"
	@echo "  make chapter-N SANITIZE=1  grade under the thread sanitizer: slower, and a data race"
	@echo "                        in your code fails its exercise with the sanitizer's report"
	@echo "  make hint-N           the hint for the first exercise that does not pass yet"
	@echo "  make hint-N EXERCISE=E     the hint for exercise E (add the REFERENCE= of your grading run)"
	@echo "  make watch-N          re-grade chapter N every time you save"
	@echo "  make compare-N        diff your chapter N against the reference answer"
	@echo "  make reset-N          put chapter N's starter back (your code is saved aside first)"
	@echo "  make walkthrough-N    interview practice: one question at a time, Enter shows the answer"
	@echo "  make progress         every chapter with a progress bar"
	@echo "  make server           the local practice API server, to poke with curl (chapter 3 on)"
	@echo "  make drill            a timed mock system-design interview: design an iOS feed"
	@echo "  make demo             the capstone feed against the practice server, with a live dashboard"
	@echo ""
	@echo "Maintain:"
	@echo "  make test             the gate: answers pass (no warnings), every exercise fails on the starter, lint"
	@echo "  make mutants [CHAPTER=N]  every classic mistake in Chapters/*/mutants is caught by a test"
	@echo "  make sanitize         the answers' tests under the thread sanitizer"
	@echo "  make lint             swift format lint on answers, tests and tooling"
	@echo "  make bench            release-build benchmarks behind the chapters' performance claims"
	@echo "  make figures          redraw the chapters' SVG figures from seeded simulations"
	@echo ""
	@echo "Chapters:"
	@for d in $(CHAPTER_DIRS); do echo "  $$d"; done

tool: $(WORKBOOK)

$(WORKBOOK): $(TOOL_SOURCES)
	@$(SWIFT) build --package-path Tools/workbook --scratch-path $(TOOL_SCRATCH) -q 2>&1 | grep -v '^\[' || true
	@test -x $@ && touch $@

chapter-%: $(WORKBOOK)
	@$(WORKBOOK) grade $* $(GRADE_FLAGS)

hint-%: $(WORKBOOK)
	@$(WORKBOOK) hint $* $(if $(EXERCISE),--exercise $(EXERCISE)) $(if $(REFERENCE),--reference $(REFERENCE))

watch-%: $(WORKBOOK)
	@$(WORKBOOK) watch $*

walkthrough-%: $(WORKBOOK)
	@$(WORKBOOK) walkthrough $*

progress: $(WORKBOOK)
	@$(WORKBOOK) progress

# The module of chapter $* (the third column of `workbook chapters`).
MODULE_OF = $(WORKBOOK) chapters | awk '$$1 == "$*" { print $$3 }'

compare-%: $(WORKBOOK)
	@module=$$($(MODULE_OF)); \
	if [ -z "$$module" ]; then echo "there is no chapter $*"; exit 2; fi; \
	if [ ! -d "answers/$$module" ]; then echo "The reference answer answers/$$module is not in this copy of the workbook."; exit 1; fi; \
	echo "Your code (Sources/$$module) against the answer (answers/$$module):"; \
	diff -ru --color=$(if $(NO_COLOR),never,auto) "Sources/$$module" "answers/$$module" && echo "identical"; true

reset-%: $(WORKBOOK)
	@module=$$($(MODULE_OF)); \
	if [ -z "$$module" ]; then echo "there is no chapter $*"; exit 2; fi; \
	Tools/reset-chapter.sh "$$module"

lint: ## swift format lint
	@$(SWIFT) format lint --strict --recursive --parallel $(LINT_PATHS)
	@echo "lint: clean"

sanitize: ## the answers' tests under the thread sanitizer
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tools/tsan-suppressions.txt halt_on_error=0" \
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all $(SWIFT) test --sanitize=thread --no-parallel --scratch-path .build/sanitize

mutants: $(WORKBOOK)
	@$(WORKBOOK) mutants $(CHAPTER)

test: $(WORKBOOK) ## the maintainer gate
	@echo "== answers: build with warnings as errors, then every test"
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 $(SWIFT) build --build-tests --scratch-path .build/answers
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_WERROR=1 WORKBOOK_TOOLS=1 $(SWIFT) test --skip-build --scratch-path .build/answers
	@echo "== starter: compiles, never crashes, and every exercise has a failing test"
	@$(WORKBOOK) check-starter
	@echo "== tooling"
	@Tools/check-tooling.sh
	@echo "== lint"
	@$(MAKE) --no-print-directory lint

drill: $(WORKBOOK) ## the timed mock system-design interview: design an iOS feed
	@$(WORKBOOK) drill

server: ## the local practice API server on 127.0.0.1 (chapter 3 on); Ctrl-C stops it
	@WORKBOOK_CHAPTERS=none $(SWIFT) run --scratch-path .build/server practice-server $(SERVER_FLAGS)

demo: ## the capstone feed against the practice server: live dashboard, chaos, summary (under a minute)
	@WORKBOOK_CHAPTERS=6 WORKBOOK_ANSWERS=all WORKBOOK_TOOLS=1 $(SWIFT) build --scratch-path .build/demo --product feed-demo -q
	@.build/demo/debug/feed-demo $(DEMO_FLAGS)

check-tooling: $(WORKBOOK)
	@Tools/check-tooling.sh

clean:
	rm -rf .build .mutant

bench: ## measured claims: release-build benchmarks of the answers, as ratios against baselines
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_TOOLS=1 $(SWIFT) run -c release --scratch-path .build/bench workbook-bench $(BENCH_FLAGS)

figures: ## seeded simulations through the answers, drawn as SVG into the chapters
	WORKBOOK_CHAPTERS=all WORKBOOK_ANSWERS=all WORKBOOK_TOOLS=1 $(SWIFT) run --scratch-path .build/answers workbook-figures $(CURDIR)
