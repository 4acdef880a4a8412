//===- NameBlocks.cpp - name blocks of instrumentation profiles -----------===//
//
// A block's sizes are checked against the bytes left before anything is
// read or inflated; a compressed block may not claim more than deflate can
// expand to (1032:1), so a corrupt size cannot make a huge allocation.
//
//===----------------------------------------------------------------------===//

#include "NameBlocks.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compression.h"

using namespace llvm;

namespace bbmap {

namespace {

/// Separates the names in a block (INSTR_PROF_NAME_SEP).
constexpr char NameSeparator = '\x01';
/// The most a zlib stream can expand (deflate's limit is 1032:1).
constexpr uint64_t MaxZlibRatio = 1032;

/// The text of one block stored at \p DataOffset (a file offset): \p Stream
/// itself, or inflated into \p Inflated.
Expected<StringRef> blockText(ArrayRef<uint8_t> Stream, uint64_t Uncompressed,
                              bool Compressed, uint64_t BlockOffset,
                              uint64_t DataOffset, StringRef SectionName,
                              SmallVectorImpl<uint8_t> &Inflated) {
  if (!Compressed)
    return toStringRef(Stream);
  if (Uncompressed > Stream.size() * MaxZlibRatio)
    return decodeError(BlockOffset, "compressed " + SectionName +
                                        " block claims " + Twine(Uncompressed) +
                                        " bytes from " + Twine(Stream.size()) +
                                        ", more than zlib can expand to");
  if (!compression::zlib::isAvailable())
    return decodeError(DataOffset, "compressed " + SectionName +
                                       " need zlib, which this LLVM lacks");
  if (Error E = compression::zlib::decompress(Stream, Inflated, Uncompressed))
    return decodeError(DataOffset, "bad zlib-compressed " + SectionName + ": " +
                                       toString(std::move(E)));
  return toStringRef(Inflated);
}

} // namespace

Error readNameBlocks(ArrayRef<uint8_t> File, uint64_t Begin, uint64_t Size,
                     StringRef SectionName, std::vector<std::string> &Out) {
  ByteReader Names(File.slice(Begin, Size), /*IsLittleEndian=*/true);
  // The reader counts from Begin; errors get file offsets.
  auto InFile = [&](Error E) {
    return handleErrors(std::move(E), [&](const DecodeError &D) {
      return decodeError(Begin + D.offset(), D.reason());
    });
  };
  while (!Names.atEnd()) {
    uint64_t BlockOffset = Begin + Names.tell();
    Expected<uint64_t> Uncompressed =
        Names.uleb((SectionName + " block size").str(), UINT64_MAX);
    if (!Uncompressed)
      return InFile(Uncompressed.takeError());
    Expected<uint64_t> Compressed =
        Names.uleb((SectionName + " block compressed size").str(), UINT64_MAX);
    if (!Compressed)
      return InFile(Compressed.takeError());
    uint64_t Stored = *Compressed ? *Compressed : *Uncompressed;
    uint64_t DataOffset = Begin + Names.tell();
    if (Stored > Names.bytesLeft())
      return decodeError(BlockOffset,
                         SectionName + " block of " + Twine(Stored) +
                             " bytes runs past the end of the " + SectionName +
                             " section (" + Twine(Names.bytesLeft()) +
                             " bytes left)");
    SmallVector<uint8_t, 0> Inflated;
    Expected<StringRef> Text = blockText(
        cantFail(Names.bytes(Stored, SectionName)), *Uncompressed,
        *Compressed != 0, BlockOffset, DataOffset, SectionName, Inflated);
    if (!Text)
      return Text.takeError();
    SmallVector<StringRef, 0> Parts;
    Text->split(Parts, NameSeparator);
    for (StringRef Name : Parts) {
      if (Name.empty())
        return decodeError(BlockOffset,
                           "empty name in " + SectionName + " block");
      Out.push_back(Name.str());
    }
    while (!Names.atEnd() && File[Begin + Names.tell()] == 0)
      Names.seek(Names.tell() + 1);
  }
  return Error::success();
}

} // namespace bbmap
