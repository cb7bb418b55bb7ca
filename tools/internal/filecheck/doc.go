// Package filecheck is LLVM's FileCheck, in Go: it reads a check file's directives and matches an
// input against them as FileCheck 21 does (https://llvm.org/docs/CommandGuide/FileCheck.html),
// with the same verdict and FileCheck's own diagnostics, so that test programs checked with
// FileCheck run where LLVM's tools do not (tools/cmd/filecheck). Parse reads a check file, Match
// matches an input; an Error carries FileCheck's diagnostics and exit status.
//
// The code follows FileCheck's (llvm/lib/FileCheck/FileCheck.cpp) step by step, and the tests run
// both on a corpus of check files and inputs (testdata/corpus) when FileCheck-21 is on PATH.
//
// # What it does
//
// Directives are PREFIX: (CHECK by default; several prefixes with --check-prefix), found
// anywhere in a line (after "//", "#", ...) where the prefix does not end a longer word; COM: and
// RUN: lines are comments. Supported: CHECK, CHECK-NEXT, CHECK-SAME, CHECK-EMPTY, CHECK-NOT
// (before, between and after positive matches), CHECK-DAG (groups, with CHECK-NOT between
// them), CHECK-COUNT-n, CHECK-LABEL (which first splits the input into blocks, each checked
// alone), the {LITERAL} modifier, and FileCheck's errors for misspelled directives
// (CHECK_NEXT:), a CHECK-NEXT, -SAME or -EMPTY with no directive before it, empty patterns,
// and prefixes no directive uses.
//
// Patterns are fixed strings with {{regex}} parts, [[VAR:regex]] string variable definitions
// and [[VAR]] uses (one on the line of the definition is a back-reference), numeric blocks
// ([[#VAR:]], [[#%x,VAR:]], [[#VAR+1]], [[#add(VAR,2)]], [[#@LINE]], [[@LINE-1]], with the
// formats %u %d %x %X, precision and alternate form), and $VAR variables that
// --enable-var-scope keeps across CHECK-LABEL blocks. As in FileCheck, the input and the check
// file have each run of spaces and tabs read as one space (unless --strict-whitespace), a
// pattern's leading and trailing whitespace is ignored, --match-full-lines anchors patterns to
// whole lines, and a pattern never matches across a newline unless a regex part names one.
//
// # Regular expressions
//
// {{...}} parts are POSIX extended regular expressions as llvm::Regex reads them (regex.go
// parses them as its regcomp.c does): alternation, groups, * + ? {n,m} (at most 255), bracket
// expressions with [:classes:], [=x=] and [.name.], [[:<:]] and [[:>:]] word boundaries, ^ and $
// matching at line ends (and at the ends of the searched text, which starts after the previous
// match), \1-\9 back-references, and any other escaped byte as itself: \d is "d", \n is "n", \.
// is ".". llvm::Regex's errors (an empty alternative a|, a repeated repetition a** or a*?, an
// unbalanced bracket) are FileCheck's "invalid regex" errors. Matching is byte by byte (a "."
// is one byte of UTF-8 text) and leftmost-longest, as POSIX specifies, through Go's regexp (on
// the input read as Latin-1, one rune a byte); expressions with back-references or word
// boundaries, which Go's regexp lacks, are matched by a backtracking matcher.
//
// A variable's value is what its group holds as llvm::Regex finds it (dissect.go, after
// Spencer's engine.c): each part of the expression in turn takes the longest text that lets the
// rest match, an alternation the first branch that fits; Go's regexp alone would take what a
// backtracking search finds first, so that {{(a|ab)(c|bcd)}}[[D:d*]] on "abcd" would give D ""
// where FileCheck gives "d". An expression Go's regexp rejects (repetitions nested beyond 1000)
// goes to the backtracking matcher too, which gives up (a pattern error) after 20 million steps.
// One quirk of llvm::Regex is not reproduced: two word-boundary assertions at one offset
// ([[:<:]][[:<:]], [[:>:]]$) match here, and there only in expressions long enough for its
// large matcher (over 64 states).
//
// # Differences from FileCheck
//
// A use of a variable that no directive matched before defines is an error of the check file
// here (exit status 2, reported when reading it, before the input); FileCheck reports it while
// matching (exit status 1), or fails earlier on another directive. An empty input is reported as
// "error: 'NAME' is empty." without FileCheck's command line. Not implemented: -D variable
// definitions, -v and -vv, --dump-input (the annotated input FileCheck appends to failures) and
// --allow-deprecated-dag-overlap. Checks.Match is not safe for concurrent use.
package filecheck
