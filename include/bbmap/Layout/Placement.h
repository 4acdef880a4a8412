//===- Placement.h - where the hot code starts in its page ------*- C++ -*-===//
//
// The hot code of a laid-out binary shares the instruction cache with the
// code of the libraries the process runs (memcmp, malloc). A line's set is
// given by address bits inside the page (64 sets of 64-byte lines: bits
// 6-11), and loaders move objects only by whole pages, so which of the
// program's hot lines compete with the libraries' hot lines is fixed when
// the program is linked. choosePlacement picks the page offset of the hot
// code that leaves the fewest modelled misses against the lines a profile
// saw run in the other objects; writePlacementAssembly writes the padding
// that puts it there with a stock lld (a page-aligned section of that many
// bytes, ordered first). docs/layout.md gives the model and its assumption:
// the machine that runs the program runs the same library builds.
//
// Threading: the functions only read their inputs (addOtherObjects writes its
// PlacementInput): calls on different inputs may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_PLACEMENT_H
#define BBMAP_LAYOUT_PLACEMENT_H

#include "bbmap/Layout/Layout.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/ProcessCode.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdint>
#include <vector>

namespace bbmap {

/// A set-associative instruction cache.
struct CacheGeometry {
  uint64_t Size = 32768;
  uint64_t Ways = 8;
  uint64_t LineBytes = 64;

  uint64_t sets() const { return Size / (Ways * LineBytes); }
};

/// Parses "SIZE,WAYS,LINE" (bytes, ways, bytes): the line size and the
/// number of sets must be powers of two.
llvm::Expected<CacheGeometry> parseCacheGeometry(llvm::StringRef Text);

/// The L1 instruction cache of the servers of \p Arch: x86-64 32 KiB 8-way
/// (Intel since Sandy Bridge, AMD since Zen 2), AArch64 64 KiB 4-way
/// (Neoverse N1, V1, N2); 64-byte lines.
CacheGeometry defaultCacheGeometry(llvm::Triple::ArchType Arch);

/// A line and how often it is fetched (in any unit, the same for all).
struct LineWeight {
  /// The line's first byte: in the placed binary an address, in another
  /// object its offset in the page.
  uint64_t Address = 0;
  double Fetches = 0;
};

/// A block of the placed binary's code, [Start, End) at its link address,
/// and how often it ran.
struct BlockWeight {
  uint64_t Start = 0;
  uint64_t End = 0;
  double Count = 0;
};

/// The lines \p Blocks fetch with the code moved by \p Shift bytes: a line
/// is fetched once per execution of each block that covers it.
std::vector<LineWeight> programLines(llvm::ArrayRef<BlockWeight> Blocks,
                                     uint64_t LineBytes, uint64_t Shift = 0);

/// The hot code moves by multiples of this, which keeps the alignment clang
/// gives functions (16 bytes on x86-64, at most that on AArch64).
constexpr uint64_t PlacementGranule = 16;

struct PlacementInput {
  /// The blocks of the placed binary's code that ran.
  std::vector<BlockWeight> Program;
  /// The lines of the other objects' code, each a distinct line.
  std::vector<LineWeight> Others;
  /// The address of the placed binary's hot code: the code after it moves
  /// with it.
  uint64_t HotStart = 0;
  /// The other objects addOtherObjects could not read.
  WarningList Warnings;
};

struct Placement {
  uint64_t HotStart = 0;
  /// The page offset the hot code starts at: HotStart's own (as linked)
  /// or another one PlacementGranule bytes apart.
  uint64_t PageOffset = 0;
  uint64_t LinkedPageOffset = 0;
  /// Modelled misses (Input's unit) as linked and at PageOffset.
  double LinkedCost = 0;
  double Cost = 0;
};

/// The page offset of \p Input's hot code with the fewest modelled misses,
/// among those PlacementGranule bytes apart. The model: in each set, the
/// lines of the program and of the other objects that fall in it, the \p
/// Cache's ways hold the most fetched, and every fetch of the others
/// misses. A cache whose sets span more than a
/// page is modelled with the sets a page offset decides, each as many ways
/// wider (the other bits are the loader's).
Placement choosePlacement(const PlacementInput &Input,
                          const CacheGeometry &Cache,
                          uint64_t PageBytes = 4096);

/// The blocks of \p Placed's code that the profile's blocks ran, by \p
/// Layout's flow (block IDs and counts, by function name), and the address
/// of its hot code (the lowest of the laid-out functions'); functions the
/// placed binary does not have once are skipped.
llvm::Expected<PlacementInput>
placedProgram(llvm::ArrayRef<FunctionLayout> Layout,
              const MappedBinary &Placed);

/// Adds the lines \p Code saw run in the other objects to \p Input.Others
/// at their offsets in a page of \p PageBytes, their weights turned into
/// the program's unit: the fetches of Input.Program's lines over
/// Code.BinaryWeight (which must not be 0). IP samples are first spread
/// over their functions (spreadOverFunctions; what it cannot read goes to
/// Input.Warnings). Returns the program's fetches as linked.
double addOtherObjects(PlacementInput &Input, ProcessCode Code,
                       uint64_t LineBytes, uint64_t PageBytes);

/// The symbol of the padding section, first in the symbol order.
constexpr llvm::StringLiteral PlacementSymbol = "__bbmap_placement";

/// An assembly file for \p Arch: a page-aligned section holding
/// PlacementSymbol and PageOffset bytes of trapping padding.
void writePlacementAssembly(const Placement &P, llvm::Triple::ArchType Arch,
                            uint64_t PageBytes, llvm::raw_ostream &OS);

} // namespace bbmap

#endif // BBMAP_LAYOUT_PLACEMENT_H
