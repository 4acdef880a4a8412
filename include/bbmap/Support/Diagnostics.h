//===- Diagnostics.h - tool-named errors and warnings -----------*- C++ -*-===//
//
// How library code reports a problem with one input and goes on: every
// message names the tool (given by the tool's main), the file and what is
// wrong, in LLVM's "tool: error: 'file': message" form.
//
// Threading: calls must not overlap; OrderedOutput's actions, which report, run
// one at a time.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_DIAGNOSTICS_H
#define BBMAP_SUPPORT_DIAGNOSTICS_H

#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

namespace bbmap {

/// Prints "<tool>: error: '<file>': <message>" lines to \p Err (after
/// flushing \p Out, so that they interleave with the output) and remembers
/// whether any was an error.
class Diagnostics {
public:
  Diagnostics(llvm::StringRef ToolName, llvm::raw_ostream &Out,
              llvm::raw_ostream &Err)
      : ToolName(ToolName), Out(Out), Err(Err) {}

  void error(llvm::StringRef File, const llvm::Twine &Msg);
  void warning(llvm::StringRef File, const llvm::Twine &Msg);
  /// A warning about \p File for each of \p Warnings.
  void warnings(llvm::StringRef File, const WarningList &Warnings);
  /// "<tool>: note: '<file>': <message>": what a run chose or changed.
  void note(llvm::StringRef File, const llvm::Twine &Msg);
  /// An error whose message names its file itself ("file:line:col: ...").
  void error(const llvm::Twine &Msg);
  bool hadError() const { return HadError; }
  llvm::StringRef toolName() const { return ToolName; }

private:
  llvm::StringRef ToolName;
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
  bool HadError = false;
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_DIAGNOSTICS_H
