//===- BoltYAML.h - read and write BOLT YAML profiles -----------*- C++ -*-===//
//
// Reader and writer of BOLT's YAML profile (`perf2bolt -w`,
// `--profile-format=yaml`, `llvm-bolt -w`) of BOLT 15 to 22, both through
// LLVM's YAML I/O with one set of mapping traits, so that the writer emits
// BOLT's keys, order, styles and omitted defaults. The model is
// BoltYAMLProfile.h; docs/formats.md ("BOLT YAML profiles") describes the
// format and the checks.
//
// Threading: the reader and the writer keep no state: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTYAML_H
#define BBMAP_BOLTPROFILE_BOLTYAML_H

#include "bbmap/BoltProfile/BoltYAMLProfile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace bbmap {
namespace boltyaml {

/// A function the reader left out of the profile, and why.
struct FunctionProblem {
  std::string Name;
  std::string Message;
};

/// Deepest nesting of collections the reader accepts; deeper input is
/// rejected before LLVM's YAML parser (which recurses on nesting) sees it.
constexpr unsigned MaxNesting = 64;

/// Reads the first YAML document of \p Buffer. Syntax errors, unknown or
/// missing keys, values out of range, an unknown `hash-func` or
/// `profile-flags` value and a `profile-version` other than 1 are errors,
/// reading "<buffer identifier>:<line>:<column>: <message>". A function
/// with a block or successor `bid` not below its `nblocks`, a block listed
/// twice, or the `fid` of an earlier function is left out and described in
/// \p Problems when given. A call's `fid` may name a function the file
/// does not list (BOLT writes such calls). The pseudo-probe keys of BOLT 19
/// and 22 are accepted and dropped.
llvm::Expected<Profile>
readBoltYAML(llvm::MemoryBufferRef Buffer,
             std::vector<FunctionProblem> *Problems = nullptr);

/// Writes \p P as BOLT's YAML writer writes the same data.
void writeBoltYAML(const Profile &P, llvm::raw_ostream &OS);

} // namespace boltyaml
} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTYAML_H
