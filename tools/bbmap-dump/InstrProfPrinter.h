//===- InstrProfPrinter.h - instrumentation profile output ------*- C++ -*-===//
//
// Output styles of `bbmap-dump --instr-profile`: the text `llvm-profdata
// show --all-functions` of LLVM 14, 19 or 22 prints (with --counts,
// --ic-targets, --show-vtables, --memop-sizes and --showcs as chosen), and JSON
// with decimal integers (docs/instrprof.md, docs/bbmap-instrprof.schema.json).
// The text is printed profile by profile as the decoder passes them, as
// llvm-profdata prints a file of concatenated raw profiles.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_INSTRPROFPRINTER_H
#define BBMAP_DUMPER_INSTRPROFPRINTER_H

#include "bbmap/InstrProf/InstrProfile.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>

namespace bbmap {

/// The llvm-profdata majors whose `show` text bbmap-dump reproduces.
enum class InstrProfTextStyle { LLVM14, LLVM19, LLVM22 };

/// The major as a number (14, 19, 22).
unsigned majorOf(InstrProfTextStyle S);

/// The style of the oldest llvm-profdata among 14, 19 and 22 that reads a
/// file whose first profile has header \p First and knows all its variant
/// flags (raw version 8: 14; raw version 10: 19; indexed versions up to 7:
/// 14, up to 12: 19; later: 22; LLVM 22's loop-entries flag: 22). Files
/// none of them reads (raw version 9) get the style of the next newer one.
InstrProfTextStyle defaultTextStyle(const InstrProfHeader &First);

struct InstrProfPrintOptions {
  /// Forces a text style; by default each file gets defaultTextStyle().
  std::optional<InstrProfTextStyle> Style;
  bool JSON = false;
  bool PrettyJSON = false;
  /// llvm-profdata show's --counts, --ic-targets, --show-vtables (LLVM 19
  /// and 22), --memop-sizes, --showcs.
  bool Counts = false;
  bool ICTargets = false;
  bool VTables = false;
  bool MemOPSizes = false;
  bool ShowCS = false;
};

/// Prints files one after another.
class InstrProfPrinter {
public:
  /// Decodes a file, passing its profiles to the consumer it is given.
  using Decoder = llvm::function_ref<llvm::Error(InstrProfConsumer &)>;

  virtual ~InstrProfPrinter() = default;
  /// Prints file \p Path, whose profiles \p Decode passes. Returns the
  /// decoder's error: the text style has printed the profiles before it
  /// then (not the summary), the JSON style nothing of the file.
  virtual llvm::Error printFile(llvm::StringRef Path, Decoder Decode) = 0;
  /// Ends the output (closes the JSON array).
  virtual void finish() {}
};

std::unique_ptr<InstrProfPrinter>
createInstrProfPrinter(llvm::raw_ostream &OS, const InstrProfPrintOptions &O);

} // namespace bbmap

#endif // BBMAP_DUMPER_INSTRPROFPRINTER_H
