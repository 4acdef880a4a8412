//===- BoltYAMLProfile.h - BOLT's YAML profile, as data ---------*- C++ -*-===//
//
// The contents of a BOLT YAML profile (`perf2bolt --profile-format=yaml`,
// `llvm-bolt -w`), in the fields BOLT 15 to 22 write: a header, then per
// function its name, id, hash and execution count, and per basic block
// (BOLT's blocks, numbered by `bid`) its instruction count, hash, count,
// call sites and successor edges. Reader and writer: BoltYAML.h. Keys a
// version does not write keep their defaults here, as BOLT's own mapping
// does. docs/formats.md describes the format.
//
// Threading: plain data: const access may be concurrent, writes need one owner.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_BOLTPROFILE_BOLTYAMLPROFILE_H
#define BBMAP_BOLTPROFILE_BOLTYAMLPROFILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {
namespace boltyaml {

/// The function that made the function and block hashes (`hash-func`).
enum class HashFunction : uint8_t {
  /// `std-hash`: libstdc++'s std::hash of the hashed string (the default
  /// when the key is absent).
  StdHash,
  /// `xxh3`: llvm::xxh3_64bits.
  XXH3,
};

/// One call site of a block (`calls: [ { off, fid, disc, cnt, mis } ]`).
struct CallSite {
  /// Offset of the call instruction from the function's start.
  uint32_t Offset = 0;
  /// The callee's function id (`fid` of a Function of this profile).
  uint32_t CalleeId = 0;
  /// Which entry point of the callee (0: the primary entry).
  uint32_t EntryDiscriminator = 0;
  uint64_t Count = 0;
  uint64_t Mispreds = 0;
};

/// One outgoing CFG edge of a block (`succ: [ { bid, cnt, mis } ]`).
struct Successor {
  uint32_t Index = 0;
  uint64_t Count = 0;
  uint64_t Mispreds = 0;
};

struct Block {
  /// BOLT's block index (`bid`), below the function's NumBlocks.
  uint32_t Index = 0;
  /// Instructions in the block, pseudo instructions left out (`insns`).
  uint32_t NumInstructions = 0;
  /// BOLT's blended block hash (`hash`); 0 when absent (BOLT 15 and 16).
  uint64_t Hash = 0;
  uint64_t ExecCount = 0;
  /// Samples of a non-LBR profile that fell in the block (`events`).
  uint64_t EventCount = 0;
  std::vector<CallSite> Calls;
  std::vector<Successor> Successors;
};

struct Function {
  std::string Name;
  /// The function's id (`fid`), which call sites name their callee by.
  uint32_t Id = 0;
  /// BOLT's function hash (`hash`).
  uint64_t Hash = 0;
  uint64_t ExecCount = 0;
  /// Entries of the function whose source is unknown or outside the
  /// binary (`extern`, BOLT 22; 0 when absent).
  uint64_t ExternEntryCount = 0;
  /// BOLT's number of blocks of the function (`nblocks`).
  uint32_t NumBlocks = 0;
  /// The blocks with a profile, in the order the file lists them.
  std::vector<Block> Blocks;
};

/// `profile-flags`.
enum ProfileFlags : uint8_t {
  ProfileLBR = 1,
  ProfileSample = 2,
  ProfileMemEvent = 4,
};

struct Header {
  uint32_t Version = 1;
  std::string BinaryName;
  std::string BuildID;
  /// ProfileFlags bits.
  uint8_t Flags = 0;
  std::string Origin;
  std::string EventNames;
  /// Block indices and the function hash follow a depth-first order of the
  /// CFG rather than the binary's block order (`dfs-order`). BOLT reads a
  /// file without the key (BOLT 15 and 16) as depth-first.
  bool IsDFSOrder = false;
  /// Whether the file has the `dfs-order` key: BOLT 19 and later always
  /// write it, BOLT 15 and 16 never do.
  bool HasDFSOrderKey = true;
  HashFunction Hash = HashFunction::StdHash;
};

struct Profile {
  Header Head;
  std::vector<Function> Functions;
};

} // namespace boltyaml
} // namespace bbmap

#endif // BBMAP_BOLTPROFILE_BOLTYAMLPROFILE_H
