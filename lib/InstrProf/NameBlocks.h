//===- NameBlocks.h - name blocks of instrumentation profiles ---*- C++ -*-===//
//
// Both profile formats store names (function PGO names in raw profiles,
// vtable names in raw and indexed ones) as blocks: ULEB128 uncompressed
// size, ULEB128 compressed size (0: not compressed), then the names joined
// by \x01, zlib-compressed when the second size is not 0; blocks may be
// followed by zero padding. One reader for both decoders.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LIB_INSTRPROF_NAMEBLOCKS_H
#define BBMAP_LIB_INSTRPROF_NAMEBLOCKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace bbmap {

/// Appends the names of the blocks in bytes [Begin, Begin + Size) of
/// \p File to \p Out. \p SectionName ("names", "vtable names") names the
/// section in errors, which carry offsets into \p File.
llvm::Error readNameBlocks(llvm::ArrayRef<uint8_t> File, uint64_t Begin,
                           uint64_t Size, llvm::StringRef SectionName,
                           std::vector<std::string> &Out);

} // namespace bbmap

#endif // BBMAP_LIB_INSTRPROF_NAMEBLOCKS_H
