//===- dumper/AddressIndex.cpp - address to basic block look-up -----------===//
//
// Builds the sorted block array and its bucket table, and answers look-ups
// with the rule described in AddressIndex.h.
//
//===----------------------------------------------------------------------===//

#include "AddressIndex.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <numeric>

using namespace llvm;

namespace bbmap {

Expected<AddressIndex> AddressIndex::create(ArrayRef<DecodedSection> Sections) {
  AddressIndex Index;
  Index.Sections = Sections;
  for (size_t I = 0; I < Sections.size(); ++I)
    Index.addSection(Sections[I], I);
  Index.sortBlocks();
  if (Error E = Index.checkOverlaps())
    return E;
  Index.buildBuckets();
  return Index;
}

void AddressIndex::addSection(const DecodedSection &Sec, uint32_t SecIndex) {
  for (size_t F = 0; F < Sec.Functions.size(); ++F) {
    const FunctionMap &Fn = Sec.Functions[F];
    for (size_t R = 0; R < Fn.Ranges.size(); ++R) {
      const BlockRange &Range = Fn.Ranges[R];
      for (size_t B = 0; B < Range.Blocks.size(); ++B) {
        uint64_t Start = Range.BaseAddress + Range.Blocks[B].Offset;
        Starts.push_back(Start);
        Refs.push_back({Start + Range.Blocks[B].Size, SecIndex, uint32_t(F),
                        uint32_t(R), uint32_t(B)});
      }
    }
  }
}

/// Orders by start, then by end, so that zero-size blocks come before the
/// non-empty block that starts at the same address.
void AddressIndex::sortBlocks() {
  std::vector<uint32_t> Order(Starts.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(Order, [&](uint32_t A, uint32_t B) {
    return std::tie(Starts[A], Refs[A].End) < std::tie(Starts[B], Refs[B].End);
  });
  std::vector<uint64_t> SortedStarts(Order.size());
  std::vector<BlockRef> SortedRefs(Order.size());
  for (size_t I = 0; I < Order.size(); ++I) {
    SortedStarts[I] = Starts[Order[I]];
    SortedRefs[I] = Refs[Order[I]];
  }
  Starts = std::move(SortedStarts);
  Refs = std::move(SortedRefs);
}

Error AddressIndex::checkOverlaps() const {
  uint64_t CoveredTo = 0;
  size_t Owner = 0;
  for (size_t I = 0; I < Starts.size(); ++I) {
    // Zero-size blocks sort before a non-empty block at the same start, so
    // any block starting below CoveredTo lies inside an earlier one.
    if (Starts[I] < CoveredTo)
      return createStringError(
          inconvertibleErrorCode(),
          "cannot look up addresses: block " + Twine(match(I).block().ID) +
              " of " + match(I).name() + " at 0x" +
              Twine::utohexstr(Starts[I]) + " overlaps block " +
              Twine(match(Owner).block().ID) + " of " + match(Owner).name() +
              " (a relocatable object with several "
              "text sections? look up addresses in the linked file)");
    CoveredTo = Refs[I].End;
    if (Starts[I] != Refs[I].End)
      Owner = I;
  }
  return Error::success();
}

/// Sizes buckets so that there are about as many buckets as blocks, which
/// bounds the table's memory by the block array's.
void AddressIndex::buildBuckets() {
  if (Starts.empty())
    return;
  Low = Starts.front();
  uint64_t Span = Starts.back() - Low + 1;
  uint64_t PerBucket = std::max<uint64_t>(1, Span / Starts.size());
  BucketShift = Log2_64_Ceil(PerBucket);
  uint64_t NumBuckets = ((Span - 1) >> BucketShift) + 1;
  Buckets.resize(NumBuckets + 1);
  size_t Entry = 0;
  for (uint64_t B = 0; B < NumBuckets; ++B) {
    uint64_t BucketLow = Low + (B << BucketShift);
    while (Entry < Starts.size() && Starts[Entry] < BucketLow)
      ++Entry;
    Buckets[B] = Entry;
  }
  Buckets[NumBuckets] = Starts.size();
}

std::pair<size_t, size_t> AddressIndex::bucketBounds(uint64_t Address) const {
  uint64_t Bucket = (Address - Low) >> BucketShift;
  if (Bucket + 1 >= Buckets.size())
    return {Buckets.back() - 1, Buckets.back()};
  return {Buckets[Bucket], Buckets[Bucket + 1]};
}

std::optional<BlockMatch> AddressIndex::lookup(uint64_t Address,
                                               LookupSide Side) const {
  if (Starts.empty() || Address < Low)
    return std::nullopt;
  auto [First, Last] = bucketBounds(Address);
  const uint64_t *Begin = Starts.data();
  if (Side == LookupSide::To) {
    const uint64_t *At = std::lower_bound(Begin + First, Begin + Last, Address);
    if (At != Begin + Last && *At == Address)
      return match(At - Begin);
  }
  // The last block starting at or below Address: in this bucket, or the
  // last one of an earlier bucket.
  size_t Entry = std::upper_bound(Begin + First, Begin + Last, Address) - Begin;
  if (Entry == 0 || Address >= Refs[Entry - 1].End)
    return std::nullopt;
  return match(Entry - 1);
}

BlockMatch AddressIndex::match(size_t Entry) const {
  const BlockRef &Ref = Refs[Entry];
  return {&Sections[Ref.Section], Ref.Function, Ref.Range, Ref.Block,
          Starts[Entry],          Ref.End};
}

} // namespace bbmap
