//===- AddressIndex.cpp - address to basic block look-up ------------------===//
//
// Builds the sorted block array and its bucket table, and answers look-ups
// with the rule described in AddressIndex.h.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/AddressIndex.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace llvm;

namespace bbmap {

Expected<AddressIndex> AddressIndex::create(ArrayRef<DecodedSection> Sections) {
  AddressIndex Index;
  Index.Sections = Sections;
  Index.reserve(Sections);
  for (size_t I = 0; I < Sections.size(); ++I)
    Index.addSection(Sections[I], I);
  Index.sortBlocks();
  Index.trimDroppedJumps();
  if (Error E = Index.checkOverlaps())
    return E;
  Index.buildBuckets();
  return Index;
}

void AddressIndex::reserve(ArrayRef<DecodedSection> Sections) {
  size_t NumFunctions = 0, NumRanges = 0, NumBlocks = 0;
  for (const DecodedSection &Sec : Sections) {
    NumFunctions += Sec.Functions.size();
    for (const FunctionMap &Fn : Sec.Functions) {
      NumRanges += Fn.Ranges.size();
      for (const BlockRange &Range : Fn.Ranges)
        NumBlocks += Range.Blocks.size();
    }
  }
  Functions.reserve(NumFunctions);
  RangeBases.reserve(NumRanges);
  Entries.reserve(NumBlocks);
}

void AddressIndex::addSection(const DecodedSection &Sec, uint32_t SecIndex) {
  for (size_t F = 0; F < Sec.Functions.size(); ++F) {
    const FunctionMap &Fn = Sec.Functions[F];
    uint32_t Function = Functions.size();
    Functions.push_back({SecIndex, uint32_t(F), Sec.Names[F], Fn.address(),
                         uint32_t(RangeBases.size())});
    for (size_t R = 0; R < Fn.Ranges.size(); ++R) {
      const BlockRange &Range = Fn.Ranges[R];
      RangeBases.push_back(Range.BaseAddress);
      for (size_t B = 0; B < Range.Blocks.size(); ++B) {
        const BlockEntry &Block = Range.Blocks[B];
        uint64_t Start = Range.BaseAddress + Block.Offset;
        Entries.push_back({Start, Start + Block.Size, Function, uint32_t(R),
                           uint32_t(B), Block.ID});
      }
    }
  }
}

/// Orders by start, then by end, so that zero-size blocks come before the
/// non-empty block that starts at the same address. A linked file's map
/// lists its blocks in address order: a look at the order first skips the
/// sort.
void AddressIndex::sortBlocks() {
  auto Before = [](const Entry &A, const Entry &B) {
    return std::tie(A.Start, A.End) < std::tie(B.Start, B.End);
  };
  if (!llvm::is_sorted(Entries, Before))
    llvm::stable_sort(Entries, Before);
}

/// lld's --optimize-bb-jumps deletes the jump that ends a section when
/// the section it jumps to comes right after it, and moves that section
/// back; the map, written by the compiler, still counts the jump. So the
/// last block of a range may overlap the first block of the next range by
/// the jump's bytes: that block ends where the next begins (a block that
/// was only that jump is left empty).
void AddressIndex::trimDroppedJumps() {
  constexpr uint64_t LongestJump = 5; // x86 jmp rel32
  for (uint32_t I = 0; I + 1 < Entries.size(); ++I) {
    Entry &A = Entries[I];
    const Entry &B = Entries[I + 1];
    if (B.Block != 0 || B.Start < A.Start || B.Start >= A.End ||
        A.End - B.Start > LongestJump)
      continue;
    if (A.Block + 1 == match(I).function().Ranges[A.Range].Blocks.size())
      A.End = B.Start;
  }
}

Error AddressIndex::checkOverlaps() const {
  uint64_t CoveredTo = 0;
  uint32_t Owner = 0;
  for (uint32_t I = 0; I < Entries.size(); ++I) {
    // Zero-size blocks sort before a non-empty block at the same start, so
    // any block starting below CoveredTo lies inside an earlier one.
    if (Entries[I].Start < CoveredTo)
      return createStringError(
          inconvertibleErrorCode(),
          "cannot look up addresses: block " + Twine(Entries[I].ID) + " of " +
              match(I).name() + " at 0x" + Twine::utohexstr(Entries[I].Start) +
              " overlaps block " + Twine(Entries[Owner].ID) + " of " +
              match(Owner).name() +
              " (a relocatable object with several "
              "text sections? look up addresses in the linked file)");
    CoveredTo = Entries[I].End;
    if (Entries[I].Start != Entries[I].End)
      Owner = I;
  }
  return Error::success();
}

/// Sizes buckets so that there are about as many buckets as blocks, which
/// bounds the table's memory by the block array's.
void AddressIndex::buildBuckets() {
  if (Entries.empty())
    return;
  Low = Entries.front().Start;
  uint64_t Span = Entries.back().Start - Low + 1;
  uint64_t PerBucket = std::max<uint64_t>(1, Span / Entries.size());
  BucketShift = Log2_64_Ceil(PerBucket);
  uint64_t NumBuckets = ((Span - 1) >> BucketShift) + 1;
  Buckets.resize(NumBuckets + 1);
  size_t Entry = 0;
  for (uint64_t B = 0; B < NumBuckets; ++B) {
    uint64_t BucketLow = Low + (B << BucketShift);
    while (Entry < Entries.size() && Entries[Entry].Start < BucketLow)
      ++Entry;
    Buckets[B] = Entry;
  }
  Buckets[NumBuckets] = Entries.size();
}

std::pair<size_t, size_t> AddressIndex::bucketBounds(uint64_t Address) const {
  uint64_t Bucket = (Address - Low) >> BucketShift;
  if (Bucket + 1 >= Buckets.size())
    return {Buckets.back() - 1, Buckets.back()};
  return {Buckets[Bucket], Buckets[Bucket + 1]};
}

uint32_t AddressIndex::find(uint64_t Address, LookupSide Side) const {
  if (Entries.empty() || Address < Low)
    return NotFound;
  auto [First, Last] = bucketBounds(Address);
  const Entry *Begin = Entries.data();
  if (Side == LookupSide::To) {
    const Entry *At =
        std::partition_point(Begin + First, Begin + Last,
                             [&](const Entry &E) { return E.Start < Address; });
    if (At != Begin + Last && At->Start == Address)
      return At - Begin;
  }
  // The last block starting at or below Address: in this bucket, or the
  // last one of an earlier bucket.
  size_t After =
      std::partition_point(Begin + First, Begin + Last,
                           [&](const Entry &E) { return E.Start <= Address; }) -
      Begin;
  if (After == 0 || Address >= Entries[After - 1].End)
    return NotFound;
  return After - 1;
}

uint32_t AddressIndex::nextBlock(uint64_t Address) const {
  auto It = llvm::partition_point(
      Entries, [&](const Entry &E) { return E.Start < Address; });
  return It == Entries.end() ? NotFound : It - Entries.begin();
}

BlockMatch AddressIndex::match(uint32_t Index) const {
  const Entry &E = Entries[Index];
  const FunctionRef &F = Functions[E.Function];
  return {
      &Sections[F.Section], F.Index, E.Range, E.Block, E.ID, E.Start, E.End};
}

} // namespace bbmap
