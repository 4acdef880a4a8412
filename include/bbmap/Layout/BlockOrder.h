//===- BlockOrder.h - a layout as a linker's order of blocks ----*- C++ -*-===//
//
// A binary built with every basic block in its own section (clang
// -fbasic-block-sections=all, with a map) is laid out by the linker alone:
// lld's --symbol-ordering-file orders the block sections by their symbols
// (`f` for the entry's, `f.__part.N` for the others), so a new profile
// needs a relink, not a recompile. blockOrder turns a layout of such a
// binary into that order; docs/layout.md ("Relinking a layout") gives the
// recipe.
//
// Threading: the functions only read their inputs: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_LAYOUT_BLOCKORDER_H
#define BBMAP_LAYOUT_BLOCKORDER_H

#include "bbmap/Layout/Layout.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Profile/BlockProfile.h"
#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace bbmap {

/// What is ordered as one graph.
enum class BlockOrderScope {
  /// Each function's hot blocks together, in the layout's block order, the
  /// functions in the layout's order (what a recompile with the clusters
  /// gives, without the recompile).
  Functions,
  /// The hot blocks of all functions in one ext-TSP order, calls as edges
  /// from the calling block to the callee's entry: hot blocks of different
  /// functions may interleave.
  Program,
};

struct BlockOrder {
  /// The section symbols, hot ones first, then the other sections of the
  /// laid-out functions; each name once.
  std::vector<std::string> Symbols;
  /// Sections holding blocks that the order puts apart (the binary was not
  /// built with a section per block, or clang kept blocks together: the
  /// landing pads of a function): their blocks keep their own order.
  unsigned SharedSections = 0;
  /// Sections without a symbol at their start, which no order can name.
  unsigned Unnamed = 0;
  /// Sections of no bytes in the binary (blocks that only mark unreachable
  /// code): lld 22 and older keep in .eh_frame_hdr only the first FDE of an
  /// address, which may be such a section's empty one, and then nothing
  /// unwinds through the code placed right after it.
  unsigned EmptySections = 0;
  /// Symbols of the binary that could not be read (left out).
  WarningList Warnings;
};

/// The order of \p Binary's block sections for \p Layout (computeLayout of
/// \p P on \p Binary).
BlockOrder blockOrder(llvm::ArrayRef<FunctionLayout> Layout,
                      const BlockProfile &P, const MappedBinary &Binary,
                      BlockOrderScope Scope);

/// One symbol per line, as lld's --symbol-ordering-file reads it.
void writeBlockOrder(const BlockOrder &Order, llvm::raw_ostream &OS);

} // namespace bbmap

#endif // BBMAP_LAYOUT_BLOCKORDER_H
