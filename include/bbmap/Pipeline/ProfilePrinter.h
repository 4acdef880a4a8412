//===- ProfilePrinter.h - profiles as JSON, text or dot ---------*- C++ -*-===//
//
// The printers of a BlockProfile, bbmap-profile's outputs: JSON
// (docs/bbmap-profile.schema.json, docs/profile.md), a readable summary of
// the hottest functions and blocks, and a Graphviz picture of one
// function's blocks and edges coloured by heat.
//
// Threading: the printers only read their arguments; several may run at
// once on distinct streams.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PIPELINE_PROFILEPRINTER_H
#define BBMAP_PIPELINE_PROFILEPRINTER_H

#include "bbmap/BoltProfile/BATProfileTranslator.h"
#include "bbmap/Layout/FlowInference.h"
#include "bbmap/Layout/StaleMatching.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Profile/BranchProfile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace bbmap {

/// What the printers say about where the profile came from.
struct ProfileOrigin {
  std::string ProfilePath;
  std::string Format;
  const BranchProfile *Profile = nullptr;
  /// Set when the profile was collected on a BOLTed binary and translated
  /// to the charged binary's addresses through its BAT table.
  std::string BoltedBinary;
  std::optional<BATTranslationStats> BAT;
  /// Set when block and edge counts were inferred from IP samples.
  std::optional<InferenceStats> Inference;
  /// Set when the profile was recorded on an earlier build and carried to
  /// the charged binary's blocks.
  std::string ProfiledBinary;
  std::optional<StaleMatchStats> Stale;
};

/// The profile JSON of \p P on \p Binary: one object per profiled
/// function with its blocks, edges and calls, and where the counts came
/// from (\p Origin); indented when \p Pretty.
void printProfileJSON(llvm::raw_ostream &OS, const MappedBinary &Binary,
                      const BlockProfile &P, const ProfileOrigin &Origin,
                      bool Pretty);

/// The \p Top hottest functions and blocks with their share of the total.
void printProfileSummary(llvm::raw_ostream &OS, const MappedBinary &Binary,
                         const BlockProfile &P, const ProfileOrigin &Origin,
                         unsigned Top);

/// A dot graph of \p Function; fails if no mapped function has that name.
llvm::Error printFunctionCFG(llvm::raw_ostream &OS, const MappedBinary &Binary,
                             const BlockProfile &P, llvm::StringRef Function);

} // namespace bbmap

#endif // BBMAP_PIPELINE_PROFILEPRINTER_H
