//===- Layout.h - code layout from a block profile --------------*- C++ -*-===//
//
// Turns a BlockProfile into the layout a stock clang and lld apply: for
// each profiled function, its hot blocks in the order LLVM's ext-TSP
// (CodeLayout) gives, as one cluster of a basic-block-sections profile
// (`clang -fbasic-block-sections=list=FILE`); and the hot functions in the
// order of LLVM's cache-directed sort, as a symbol ordering file
// (`ld.lld --symbol-ordering-file`). docs/layout.md gives the rules.
//
// Threading: the functions that take a thread count run on those threads; all
// only read their inputs but keepUnitLayouts, which writes its Layout.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_LAYOUT_H
#define BBMAP_LAYOUT_LAYOUT_H

#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// A block's count and the counts of its outgoing edges (CFG successors).
struct BlockFlow {
  uint32_t ID = 0;
  uint64_t Count = 0;
  std::vector<std::pair<uint32_t, uint64_t>> Successors;
};

/// The layout of one hot function.
struct FunctionLayout {
  /// The symbol name (mangled, as clang names the function).
  std::string Name;
  /// The function's address in the binary the profile was charged to.
  uint64_t Address = 0;
  /// The other function symbols at its address (a C1 constructor that is
  /// an alias of its C2 twin, say): clang knows the function by one of the
  /// names only, and an `f` line that lists them all finds it.
  std::vector<std::string> Aliases;
  /// Other functions of the binary have the same name (local functions of
  /// other files): the cluster profile must name this one's module.
  bool SharedName = false;
  /// For a function with a shared name: the name of its compile unit in
  /// the binary's DWARF (DW_AT_name), which is what clang matches an `m`
  /// line against; empty when the binary has no debug information for it,
  /// and then the cluster profile leaves the function out.
  std::string Module;
  /// The hot cluster: block IDs in layout order, the entry block first
  /// (LayoutOptions::ColdFraction says which blocks). Empty for a function
  /// that keeps its blocks in the binary's order, in one piece, and that
  /// no cluster profile names (keepUnitLayouts).
  std::vector<uint32_t> HotBlocks;
  /// Some blocks are not in the cluster: clang puts them in a `.cold` part.
  bool HasColdBlocks = false;
  /// The blocks that ran, in address order, with their edges.
  std::vector<BlockFlow> Flow;
  /// (block ID, hash) of every block, when the map has block hashes.
  std::vector<std::pair<uint32_t, uint64_t>> Hashes;
  /// writeBlockSections keeps the function's blocks in one section.
  bool OneSection = false;
};

/// True when half or more of a function's records do not fit its blocks
/// (a stale profile of it, or another binary's): its counts say little
/// about its code, and the layout leaves it out.
inline bool leftOutOfLayout(const FunctionFit &F) {
  return F.Misfits && F.Misfits * 2 >= F.Records;
}

/// The default LayoutOptions::ColdFraction for counts of executions (branch
/// records, traces): chosen on bench/layout-suite.sh (docs/layout.md, "What
/// the profile did not see").
constexpr double DefaultColdFraction = 0.00003;

/// The order of the hot functions (the names of BOLT's -reorder-functions).
enum class FunctionOrder {
  /// LLVM's cache-directed sort of the call graph (BOLT's cdsort).
  CacheDirected,
  /// The most executed function (the sum of its block counts) first.
  ExecCount,
  /// The binary's own order (by address): only hot and cold are split.
  None,
};

/// How computeLayout lays out.
struct LayoutOptions {
  /// A block that ran fewer than ColdFraction times as often as its
  /// function's hottest block joins the blocks that never ran in the
  /// function's cold part. Unset: DefaultColdFraction for counts of
  /// executions, which keeps all but the rarest blocks (setup and error
  /// paths) hot, as a block a short training run reached rarely is not
  /// rare in a long run; 0 for counts inferred from IP samples, where a
  /// small count is the inference's estimate. 0 keeps every block that
  /// ran, as BOLT's -split-all-cold does.
  std::optional<double> ColdFraction;
  /// Functions are laid out on up to Threads threads (0: the machine's
  /// hardware threads); the result is the same for any number.
  unsigned Threads = 0;
  FunctionOrder Order = FunctionOrder::CacheDirected;
};

/// Hot functions (a non-zero count), in LayoutOptions::Order, except those
/// left out (leftOutOfLayout).
std::vector<FunctionLayout> computeLayout(const BlockProfile &P,
                                          const MappedBinary &Binary,
                                          const LayoutOptions &Options = {});

/// The clang a cluster profile is for: 19 stops at any specifier it does
/// not know, 22 also reads `g` (block and edge counts) and `h` (block
/// hashes, for its matching of stale profiles).
enum class ClusterConsumer { Clang19, Clang22 };

/// A version 1 basic-block-sections profile: `v1`, then per function an `f`
/// and one `c` line (and for clang 22 a `g` line, and an `h` line when the
/// map has block hashes). A function whose name others share comes after
/// an `m` line naming its compile unit (clang reads an `m` line for the one
/// `f` line after it, and matches it with debug information only); one
/// without a Module is left out.
void writeClusterProfile(llvm::ArrayRef<FunctionLayout> Layout,
                         ClusterConsumer Consumer, llvm::raw_ostream &OS);

/// One cluster profile per compile unit, for builds that recompile only
/// the units whose layout changed.
struct UnitProfiles {
  /// (unit, profile text) for every compile unit of the binary's DWARF
  /// (DW_AT_name), by unit name; a unit without a laid-out function gets a
  /// profile of its `v1` line alone.
  std::vector<std::pair<std::string, std::string>> Files;
  /// Laid-out functions whose address no compile unit covers (no debug
  /// information): in no unit's profile.
  unsigned WithoutUnit = 0;
};

/// \p Layout split by compile unit (writeClusterProfile's lines, without
/// `m` lines: a unit's local functions have names of their own).
UnitProfiles unitProfiles(llvm::ArrayRef<FunctionLayout> Layout,
                          const MappedBinary &Binary, ClusterConsumer Consumer);

/// The file name of \p Unit's profile: its DW_AT_name with each `/` as `%`,
/// and `.clusters`.
std::string unitProfileName(llvm::StringRef Unit);

/// Keeps the layouts of an earlier run's unit profiles in \p Dir (files
/// named unitProfileName) where the new \p Layout gains little: a unit's
/// file is kept when its new clusters would raise the ext-TSP score of the
/// whole of \p Layout, on \p Layout's counts, by at most \p MinGain (a
/// fraction of that score) over the layout the file gave the unit's
/// functions (its `c` line, of the function's blocks, the entry block
/// first; a function it does not name compiled whole, in the binary's
/// order). The functions of a kept unit take its file's clusters in \p
/// Layout (or none), so that the whole profile and the unit files agree.
/// Returns the kept units; a unit without a file, or whose file does not
/// read, is not.
std::vector<std::string> keepUnitLayouts(std::vector<FunctionLayout> &Layout,
                                         const MappedBinary &Binary,
                                         llvm::StringRef Dir, double MinGain);
/// Every mapped function of \p Binary with all its blocks, the entry block
/// first, in the binary's order (Module set for a function whose name
/// others share): for writeBlockSections, no profile needed. On AArch64 a
/// function with an indirect branch keeps OneSection: its jump tables
/// address their targets with `adr` from the jump's section, which an
/// assembler cannot do across sections.
std::vector<FunctionLayout> everyBlock(const MappedBinary &Binary);

/// A version 1 profile with one `c` line per block of each function of \p
/// Layout (everyBlock; one line with all of them for OneSection): clang
/// gives each block a section of its own, as -fbasic-block-sections=all
/// does on x86-64 only (AArch64 refuses it).
/// A function whose name others share comes after its `m` line, or is
/// left out without one.
void writeBlockSections(llvm::ArrayRef<FunctionLayout> Layout,
                        llvm::raw_ostream &OS);

/// The hot functions in order, then the `.cold` part of each that has one
/// (the blocks in no cluster, which clang puts in a section of their own);
/// a name that several local functions share is listed once. \p First,
/// when not empty, is listed before them (the placement's padding).
void writeSymbolOrder(llvm::ArrayRef<FunctionLayout> Layout,
                      llvm::raw_ostream &OS, llvm::StringRef First = "");

} // namespace bbmap

#endif // BBMAP_LAYOUT_LAYOUT_H
