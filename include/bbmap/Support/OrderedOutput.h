//===- OrderedOutput.h - parallel pieces of output, in order ----*- C++ -*-===//
//
// OrderedOutput runs tasks that each produce a piece of a tool's output on a
// thread pool and writes the pieces to a stream in the order they were
// submitted. Text written between tasks and actions such as diagnostics keep
// their place in that order. At most a window of tasks is in flight, so
// memory stays bounded however long the output is.
//
// With one thread there is no pool: each task runs at once on the caller's
// thread and is written before submit() returns. The bytes written are the
// same for every thread count, by construction.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_ORDEREDOUTPUT_H
#define BBMAP_SUPPORT_ORDEREDOUTPUT_H

#include "bbmap/Support/OutputBuffer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bbmap {

/// What a task produces: text, and what to do once it is written.
struct OutputPiece {
  /// May be null (no text).
  std::unique_ptr<TextPiece> Text;
  /// Run on the writing thread right after Text is written (e.g. to print
  /// diagnostics about it); may be empty.
  std::function<void()> After;
};

class OrderedOutput {
public:
  /// \p Threads workers (1: none, every task runs at submission).
  OrderedOutput(llvm::raw_ostream &OS, unsigned Threads);
  /// Writes what is still pending.
  ~OrderedOutput();

  unsigned threads() const { return Threads; }

  /// Runs \p Task on a worker with an empty text to write its piece into.
  /// The piece is written after everything submitted before it, then
  /// \p After runs (e.g. to print diagnostics about it; on whichever thread
  /// writes the piece, never two at once). Blocks while the window of tasks
  /// in flight is full.
  void submit(std::function<void(TextPiece &)> Task,
              std::function<void()> After = {});
  /// Text that is ready now, in order after what was submitted before it.
  void write(llvm::StringRef Text);
  /// Runs \p Action on this thread once everything submitted before it has
  /// been written.
  void then(std::function<void()> Action);
  /// Waits for every task and writes every piece.
  void finish();
  /// A stream whose text goes to write(): unbuffered, for writers that
  /// buffer themselves.
  llvm::raw_ostream &stream() { return Adaptor; }

  /// The number of independent tasks a caller should cut its work into so
  /// that every worker stays busy.
  unsigned tasksWanted() const { return Threads == 1 ? 1 : 4 * Threads; }

private:
  class Stream : public llvm::raw_ostream {
  public:
    explicit Stream(OrderedOutput &Out) : Out(Out) { SetUnbuffered(); }

  private:
    void write_impl(const char *Ptr, size_t Size) override {
      Out.write(llvm::StringRef(Ptr, Size));
    }
    uint64_t current_pos() const override { return 0; }
    OrderedOutput &Out;
  };

  /// A task's piece (Result, once Done) or a piece ready at once.
  struct Entry {
    std::optional<std::shared_future<void>> Done;
    std::shared_ptr<OutputPiece> Result;
    OutputPiece Ready;
  };

  static constexpr size_t PieceCapacity = 1 << 20;

  std::unique_ptr<TextPiece> takeBuffer();
  void emit(const OutputPiece &Piece);
  /// Writes the oldest entry, waiting for it if it is a task.
  void popFront();

  llvm::raw_ostream &OS;
  unsigned Threads;
  /// At most this many tasks in flight.
  unsigned Window;
  unsigned InFlight = 0;
  std::unique_ptr<llvm::ThreadPoolInterface> Pool;
  std::deque<Entry> Pending;
  /// Storage of written pieces, for takeBuffer.
  std::vector<std::unique_ptr<TextPiece>> Free;
  Stream Adaptor{*this};
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_ORDEREDOUTPUT_H
