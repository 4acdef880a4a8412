//===- BATPrinter.h - BAT table and translation output ----------*- C++ -*-===//
//
// Output styles of `bbmap-dump --bat`: the text llvm-bat-dump prints for the
// table's format (BOLT 16's `--dump-all` for the fixed format, BOLT 19's
// BoltAddressTranslation::dump() for the delta format, with the parse lines
// before them), and JSON with decimal integers. Translations print as one
// line or JSON object per address.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_BATPRINTER_H
#define BBMAP_DUMPER_BATPRINTER_H

#include "bbmap/BAT/BATDecoder.h"
#include "bbmap/Object/BATTranslator.h"
#include "bbmap/Object/BATVerifier.h"
#include "bbmap/Object/MappedBinary.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace bbmap {

/// One translated address, with its input-binary location when chained.
struct TranslationResult {
  TranslateRequest Request;
  BATTranslation Translation;
  std::optional<InputLocation> Input;
};

/// Prints \p T as llvm-bat-dump of the matching BOLT release does.
void printBATText(llvm::raw_ostream &OS, const BATTable &T);
/// Writes the members "Format", "Functions" and "ColdLinks" of the object
/// being written.
void writeBATJSON(llvm::json::OStream &J, const BATTable &T);

/// "0xADDR[:from] -> FUNCTION + 0xOFFSET[ (no BAT table)]
/// [-> input FUNCTION 0xADDR: BB ID + 0xOFF]".
void printTranslationText(llvm::raw_ostream &OS, const TranslationResult &R);
/// One translation as a JSON object.
void writeTranslationJSON(llvm::json::OStream &J, const TranslationResult &R);

/// "verify: offset 0xN: MESSAGE" lines and a summary line.
void printFindingsText(llvm::raw_ostream &OS,
                       llvm::ArrayRef<BATFinding> Findings,
                       const BATVerifyStats &Stats);
/// Writes the member "Verify" of the object being written.
void writeFindingsJSON(llvm::json::OStream &J,
                       llvm::ArrayRef<BATFinding> Findings,
                       const BATVerifyStats &Stats);

} // namespace bbmap

#endif // BBMAP_DUMPER_BATPRINTER_H
