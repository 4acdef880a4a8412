//===- BoltYAMLCounts.h - a BOLT YAML profile on the map's blocks -*- C++
//-*-===//
//
// BOLT's YAML profile counts BOLT's own basic blocks, numbered by `bid` in
// layout or depth-first order. countYAMLBlocks rebuilds those blocks from
// the binary (BoltFunctionView, MC disassembly) and charges the counts to
// the blocks of the binary's map: a map block ran as often as the BOLT
// block that holds its first byte, an edge between map blocks is the BOLT
// edge between the blocks that hold its ends (or, within one BOLT block,
// that block's count), a call is the YAML call site at its offset. A
// function whose BOLT blocks do not fit the file's (another build: block
// count or instruction counts differ) is left out and named. A BAT-mode
// YAML (perf2bolt on a BOLTed binary) names the input binary's blocks and
// is read against the input binary. docs/profile.md ("BOLT YAML input").
//
// Threading: countYAMLBlocks only reads its inputs: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTYAMLCOUNTS_H
#define BBMAP_BOLTPROFILE_BOLTYAMLCOUNTS_H

#include "bbmap/BoltProfile/BoltYAMLProfile.h"
#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// A profiled function of the YAML file that was not charged, and why.
struct YAMLMisfit {
  std::string Name;
  std::string Reason;
  /// The function's execution count in the file.
  uint64_t ExecCount = 0;
};

struct YAMLCounts {
  BlockProfile Profile;
  /// Functions of the file with blocks, and those charged.
  uint64_t Functions = 0;
  uint64_t Charged = 0;
  /// Calls whose callee the file does not list.
  uint64_t CallsUnresolved = 0;
  std::vector<YAMLMisfit> Misfits;
};

/// Charges \p P to the map blocks of \p Binary.
YAMLCounts countYAMLBlocks(const boltyaml::Profile &P,
                           const MappedBinary &Binary,
                           const InstructionDecoder &Decoder);

} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTYAMLCOUNTS_H
