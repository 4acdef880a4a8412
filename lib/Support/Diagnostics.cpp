//===- Diagnostics.cpp - tool-named errors and warnings -------------------===//
//
// The message kinds of Diagnostics, coloured as LLVM tools colour them.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/Diagnostics.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace bbmap {

void Diagnostics::error(StringRef File, const Twine &Msg) {
  Out.flush();
  WithColor::error(Err, ToolName) << "'" << File << "': " << Msg << "\n";
  HadError = true;
}

void Diagnostics::error(const Twine &Msg) {
  Out.flush();
  WithColor::error(Err, ToolName) << Msg << "\n";
  HadError = true;
}

void Diagnostics::warning(StringRef File, const Twine &Msg) {
  Out.flush();
  WithColor::warning(Err, ToolName) << "'" << File << "': " << Msg << "\n";
}

void Diagnostics::warnings(StringRef File, const WarningList &Warnings) {
  for (const std::string &Msg : Warnings.messages())
    warning(File, Msg);
}

void Diagnostics::note(StringRef File, const Twine &Msg) {
  Out.flush();
  WithColor::note(Err, ToolName) << "'" << File << "': " << Msg << "\n";
}

} // namespace bbmap
