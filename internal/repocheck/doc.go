// Package repocheck has no API: its tests check rules of the repository's
// own source, so that the rules are kept by the README's test command
// rather than by review alone.
//
//   - Every conversion through package unsafe, and every call of
//     unsafe.Add, unsafe.Slice, unsafe.SliceData, unsafe.String and
//     unsafe.StringData, carries a "// SAFETY:" comment that says why it
//     is sound (TestUnsafeHasSafetyComment states the rule exactly).
//   - No doc comment of a non-test file quotes a measured figure, such as a
//     time, a throughput or a speed-up ratio: measured figures live in the
//     README's Performance section, with the commands that measured them
//     (TestNoMeasuredFiguresInDocComments).
//
// The tests read every Go file of the repository, the nested modules'
// included, except those under testdata folders and folders whose names
// begin with "." or "_".
package repocheck
