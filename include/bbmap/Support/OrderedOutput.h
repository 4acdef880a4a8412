//===- OrderedOutput.h - parallel pieces of output, in order ----*- C++ -*-===//
//
// OrderedOutput runs tasks that each write a piece of a tool's output on a
// thread pool and writes the pieces to a stream in the order they were
// submitted. Text written between tasks and actions such as diagnostics keep
// their place in that order. At most a window of tasks is in flight, so
// memory stays bounded however long the output is.
//
// Every piece is numbered at submission. A worker writes its task's piece
// into a buffer from a small pool, then leaves it with the pieces waiting
// to be written; whichever thread finds the next piece in order writes it
// and every following piece that is ready, one writer at a time. With one
// thread there is no pool: each task runs at once on the caller's thread.
// The bytes written are the same for every thread count, by construction.
//
// Threading: one thread owns an OrderedOutput (submit, write, then, finish);
// its tasks run on the pool and write only their own piece.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_ORDEREDOUTPUT_H
#define BBMAP_SUPPORT_ORDEREDOUTPUT_H

#include "bbmap/Support/OutputBuffer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace bbmap {

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
  /// Runs \p Action once everything submitted before it has been written
  /// (on whichever thread writes that, never two at once).
  void then(std::function<void()> Action);
  /// Waits for every task and writes every piece.
  void finish();
  /// A stream whose text goes to write(): unbuffered, for writers that
  /// buffer themselves.
  llvm::raw_ostream &stream() { return Adaptor; }

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

  /// A piece waiting for its turn.
  struct Piece {
    std::unique_ptr<TextPiece> Text;
    std::function<void()> After;
    bool IsTask = false;
  };

  /// Takes a buffer from the pool, or makes one. Called with Lock held.
  std::unique_ptr<TextPiece> takeBuffer();
  /// Leaves piece \p Number to be written, and writes what is ready if no
  /// other thread is writing.
  void deposit(uint64_t Number, Piece P);
  /// As the writer: writes the waiting pieces from the next number on, then
  /// stops being the writer. Called with \p L (Lock) held.
  void writeWaiting(std::unique_lock<std::mutex> &L);
  void emit(llvm::StringRef Text, const std::function<void()> &After);
  /// Queues text and an action after everything submitted so far.
  void queue(llvm::StringRef Text, std::function<void()> After);

  llvm::raw_ostream &OS;
  unsigned Threads;
  /// At most this many tasks in flight.
  unsigned Window;
  std::unique_ptr<llvm::ThreadPoolInterface> Pool;

  std::mutex Lock;
  /// Signalled when a piece is written.
  std::condition_variable Written;
  uint64_t NextNumber = 0;
  uint64_t NextToWrite = 0;
  unsigned TasksInFlight = 0;
  /// Whether a thread is writing (then it also writes what arrives).
  bool Writing = false;
  std::map<uint64_t, Piece> Waiting;
  std::vector<std::unique_ptr<TextPiece>> FreeBuffers;
  Stream Adaptor{*this};
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_ORDEREDOUTPUT_H
