//===- dumper/AddressIndex.h - address to basic block look-up ---*- C++ -*-===//
//
// An index over the decoded basic-block address maps of one file that maps a
// machine address to the block containing it: function, range, block ID and
// offset within the block. Blocks are kept in one array sorted by start
// address, with a bucket table over the address span so that a look-up is a
// table read plus a short search.
//
// Rule (the Propeller convention): a block covers [start, start + size).
// Zero-size blocks cover nothing, and an address at a block's end belongs to
// the block that starts there, if any. When several blocks start at the
// same address (zero-size blocks before a non-empty one), a "from" look-up
// (the default, for branch sources and samples) returns the block that
// covers the address, while a "to" look-up (branch targets) returns the
// first block that starts there, possibly a zero-size one.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_ADDRESSINDEX_H
#define BBMAP_DUMPER_ADDRESSINDEX_H

#include "ELFMapReader.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
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

  std::optional<BlockMatch> lookup(uint64_t Address,
                                   LookupSide Side = LookupSide::From) const;

  size_t numBlocks() const { return Starts.size(); }

private:
  struct BlockRef {
    uint64_t End;
    uint32_t Section;
    uint32_t Function;
    uint32_t Range;
    uint32_t Block;
  };

  AddressIndex() = default;
  void addSection(const DecodedSection &Sec, uint32_t SecIndex);
  void sortBlocks();
  llvm::Error checkOverlaps() const;
  void buildBuckets();
  /// The entries [first, last) that start in \p Address's bucket.
  std::pair<size_t, size_t> bucketBounds(uint64_t Address) const;
  BlockMatch match(size_t Entry) const;

  llvm::ArrayRef<DecodedSection> Sections;
  /// Block start addresses, ascending; Refs is parallel.
  std::vector<uint64_t> Starts;
  std::vector<BlockRef> Refs;
  /// Buckets[B] is the first entry whose start is at or above
  /// Low + (B << BucketShift); the last bucket bound is Starts.size().
  std::vector<uint32_t> Buckets;
  uint64_t Low = 0;
  unsigned BucketShift = 0;
};

} // namespace bbmap

#endif // BBMAP_DUMPER_ADDRESSINDEX_H
