//===- AddressIndex.h - address to basic block look-up ----------*- C++ -*-===//
//
// An index over the decoded basic-block address maps of one file that maps a
// machine address to the block containing it: function, range, block ID and
// offset within the block. Blocks are kept in one array sorted by start
// address, with a bucket table over the address span so that a look-up is a
// table read plus a short search. Each entry holds what describing a match
// needs (block extent, IDs, the index of its function in a small table of
// names), so that printing a result reads the cache line the look-up has
// just read.
//
// Rule (the Propeller convention): a block covers [start, start + size).
// Zero-size blocks cover nothing, and an address at a block's end belongs to
// the block that starts there, if any. When several blocks start at the
// same address (zero-size blocks before a non-empty one), a "from" look-up
// (the default, for branch sources and samples) returns the block that
// covers the address, while a "to" look-up (branch targets) returns the
// first block that starts there, possibly a zero-size one.
//
// Threading: an index is only read once made: its const members may be called
// from several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_ADDRESSINDEX_H
#define BBMAP_OBJECT_ADDRESSINDEX_H

#include "bbmap/Object/ELFMapReader.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace bbmap {

/// Which block an address names when blocks share a start address.
enum class LookupSide {
  /// The block that covers the address (branch sources, samples).
  From,
  /// The first block that starts at the address (branch targets).
  To,
};

/// Where an address falls.
struct BlockMatch {
  const DecodedSection *Section = nullptr;
  /// Indexes into Section->Functions, its Ranges and their Blocks.
  uint32_t Function = 0;
  uint32_t Range = 0;
  uint32_t Block = 0;
  /// The block's ID.
  uint32_t ID = 0;
  uint64_t BlockStart = 0;
  uint64_t BlockEnd = 0;

  const FunctionMap &function() const { return Section->Functions[Function]; }
  llvm::StringRef name() const { return Section->Names[Function]; }
  const BlockEntry &block() const {
    return function().Ranges[Range].Blocks[Block];
  }
};

class AddressIndex {
public:
  /// Indexes every block of \p Sections, which must outlive the index. Fails
  /// if two non-empty blocks overlap (e.g. functions of different sections
  /// of a relocatable object, which all start at 0): their addresses are
  /// ambiguous.
  static llvm::Expected<AddressIndex>
  create(llvm::ArrayRef<DecodedSection> Sections);

  /// What find() returns when no block matches.
  static constexpr uint32_t NotFound = UINT32_MAX;

  /// The entry of the block that \p Address names, or NotFound.
  uint32_t find(uint64_t Address, LookupSide Side = LookupSide::From) const;
  /// Describes an entry that find() returned.
  BlockMatch match(uint32_t Entry) const;

  std::optional<BlockMatch> lookup(uint64_t Address,
                                   LookupSide Side = LookupSide::From) const {
    uint32_t Entry = find(Address, Side);
    if (Entry == NotFound)
      return std::nullopt;
    return match(Entry);
  }

  size_t numBlocks() const { return Entries.size(); }
  /// The first entry whose block starts at or after \p Address, or NotFound.
  uint32_t nextBlock(uint64_t Address) const;
  /// Entries are numbered by ascending block start; these read one entry.
  uint64_t blockStart(uint32_t Entry) const { return Entries[Entry].Start; }
  uint64_t blockEnd(uint32_t Entry) const { return Entries[Entry].End; }
  /// True when both entries are blocks of the same range of one function,
  /// so that every entry between them is too.
  bool sameFunction(uint32_t A, uint32_t B) const {
    return Entries[A].Function == Entries[B].Function;
  }
  bool sameRange(uint32_t A, uint32_t B) const {
    return sameFunction(A, B) && Entries[A].Range == Entries[B].Range;
  }
  /// True when control can fall from entry \p A into entry A + 1: blocks of
  /// one range of a function, or of two of its ranges that the linker placed
  /// side by side (a build with a section per block), at most the padding
  /// of a 16-byte alignment apart.
  bool fallsInto(uint32_t A) const {
    return A + 1 < Entries.size() &&
           (sameRange(A, A + 1) ||
            (sameFunction(A, A + 1) && Entries[A].End <= Entries[A + 1].Start &&
             Entries[A + 1].Start - Entries[A].End < 16));
  }
  /// True when every entry from \p A up to \p B falls into the next:
  /// a run of straight-line code from block A can reach block B.
  bool runsThrough(uint32_t A, uint32_t B) const {
    if (sameRange(A, B))
      return true;
    for (uint32_t E = A; E < B; ++E)
      if (!fallsInto(E))
        return false;
    return A <= B;
  }
  /// What a text look-up result prints, from the entry alone and the
  /// function's name.
  uint32_t rangeOf(uint32_t Entry) const { return Entries[Entry].Range; }
  uint32_t idOf(uint32_t Entry) const { return Entries[Entry].ID; }
  llvm::StringRef nameOf(uint32_t Entry) const {
    return Functions[Entries[Entry].Function].Name;
  }
  /// The entry address of the block's function, and the base address of
  /// its range.
  uint64_t functionAddressOf(uint32_t Entry) const {
    return Functions[Entries[Entry].Function].Address;
  }
  uint64_t rangeBaseOf(uint32_t Entry) const {
    const struct Entry &E = Entries[Entry];
    return RangeBases[Functions[E.Function].FirstRange + E.Range];
  }

  /// Cache hints for a later find(Address), in two steps: prefetchBucket
  /// early, then prefetchBlocks once the bucket entry has arrived.
  void prefetchBucket(uint64_t Address) const {
    __builtin_prefetch(&Buckets[bucketOf(Address)]);
  }
  void prefetchBlocks(uint64_t Address) const {
    __builtin_prefetch(&Entries[Buckets[bucketOf(Address)]]);
  }

  /// Cache hints for a later match(Entry), in two steps as above.
  void prefetchRef(uint32_t Entry) const {
    __builtin_prefetch(&Entries[Entry]);
  }
  void prefetchName(uint32_t Entry) const {
    __builtin_prefetch(Functions[Entries[Entry].Function].Name.data());
  }

private:
  /// One block: what a look-up reads and what describing it needs, in 32
  /// bytes.
  struct Entry {
    uint64_t Start;
    uint64_t End;
    /// Index into Functions.
    uint32_t Function;
    uint32_t Range;
    uint32_t Block;
    uint32_t ID;
  };
  /// A function of the indexed sections.
  struct FunctionRef {
    uint32_t Section;
    uint32_t Index;
    llvm::StringRef Name;
    uint64_t Address;
    /// Where its ranges' base addresses start in RangeBases.
    uint32_t FirstRange;
  };

  AddressIndex() = default;
  /// Room for all blocks, ranges and functions of \p Sections.
  void reserve(llvm::ArrayRef<DecodedSection> Sections);
  void addSection(const DecodedSection &Sec, uint32_t SecIndex);
  void sortBlocks();
  void trimDroppedJumps();
  llvm::Error checkOverlaps() const;
  void buildBuckets();
  /// The bucket of \p Address, clamped to the table; 0 for an empty index.
  size_t bucketOf(uint64_t Address) const {
    if (Buckets.size() < 2 || Address < Low)
      return 0;
    return std::min<uint64_t>((Address - Low) >> BucketShift,
                              Buckets.size() - 2);
  }
  /// The entries [first, last) that start in \p Address's bucket.
  std::pair<size_t, size_t> bucketBounds(uint64_t Address) const;

  llvm::ArrayRef<DecodedSection> Sections;
  std::vector<FunctionRef> Functions;
  std::vector<uint64_t> RangeBases;
  /// Blocks by ascending start.
  std::vector<Entry> Entries;
  /// Buckets[B] is the first entry whose start is at or above
  /// Low + (B << BucketShift); the last bucket bound is Entries.size().
  std::vector<uint32_t> Buckets;
  uint64_t Low = 0;
  unsigned BucketShift = 0;
};

} // namespace bbmap

#endif // BBMAP_OBJECT_ADDRESSINDEX_H
