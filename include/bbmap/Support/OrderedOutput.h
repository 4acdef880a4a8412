//===- OrderedOutput.h - parallel pieces of output, in order ----*- C++ -*-===//
//
// OrderedOutput runs tasks that each write a piece of a tool's output on a
// thread pool and writes the pieces to a stream in the order they were
// submitted. Text written between tasks and actions such as diagnostics keep
// their place in that order. At most a window of tasks is in flight, so
// memory stays bounded however long the output is.
//
// Each task is numbered at submission. A worker writes its piece into a
// buffer of its own (reused from task to task, so it stays in that core's
// cache), waits until every piece before it is out, writes it to the
// stream, and then writes whatever text or action was queued right after
// it. With one thread there is no pool: each task runs at once on the
// caller's thread. The bytes written are the same for every thread count,
// by construction.
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

  /// Text and an action queued between tasks.
  struct ReadyPiece {
    TextPiece Text;
    std::function<void()> After;
  };

  /// Writes \p Text, then runs \p After. Called with Lock held.
  void emit(llvm::StringRef Text, const std::function<void()> &After);
  /// Writes the ready pieces whose turn has come. Called with Lock held.
  void emitReady();
  /// Queues a ready piece, or writes it at once if nothing precedes it.
  void queue(llvm::StringRef Text, std::function<void()> After);
  /// A worker's turn: writes the piece of task \p Number.
  void emitTask(uint64_t Number, const TextPiece &Text,
                const std::function<void()> &After);

  llvm::raw_ostream &OS;
  unsigned Threads;
  /// At most this many tasks in flight.
  unsigned Window;
  std::unique_ptr<llvm::ThreadPoolInterface> Pool;
  /// The piece of a task run on the caller's thread (one thread).
  TextPiece InlineText;

  std::mutex Lock;
  std::condition_variable Turn;
  /// Every piece (task or ready) has a number; pieces are written in
  /// number order.
  uint64_t NextNumber = 0;
  uint64_t NextToWrite = 0;
  unsigned TasksInFlight = 0;
  std::map<uint64_t, ReadyPiece> Ready;
  Stream Adaptor{*this};
};

} // namespace bbmap

#endif // BBMAP_SUPPORT_ORDEREDOUTPUT_H
