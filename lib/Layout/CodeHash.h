//===- CodeHash.h - block hashes computed from machine code -----*- C++ -*-===//
//
// Blended block hashes of a mapped function computed from its decoded
// instructions, in the layout of the maps' hashes (the plugin's and LLVM
// 22's: bits 0-15 the instructions before the block, 16-31 its opcodes,
// 32-47 its opcodes and operands, 48-63 its neighbours' opcodes), for
// matching blocks of two builds whose maps carry no hashes, or hashes of
// different compilers (which number opcodes differently). Opcodes are
// hashed by name, registers by name, immediates by value, except operands
// that hold addresses (PC-relative targets and displacements), which move
// from one build to the next. Private to lib/Layout.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LIB_LAYOUT_CODEHASH_H
#define BBMAP_LIB_LAYOUT_CODEHASH_H

#include "bbmap/Object/InstructionDecoder.h"
#include "bbmap/Profile/BlockProfile.h"
#include <cstdint>
#include <vector>

namespace bbmap {

/// The hash of each block of \p F (F.Entries order).
std::vector<uint64_t> codeBlockHashes(const FunctionBlocks &F,
                                      const AddressIndex &Index,
                                      const InstructionDecoder &Decoder);

} // namespace bbmap

#endif // BBMAP_LIB_LAYOUT_CODEHASH_H
