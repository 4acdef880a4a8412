//===- ProfilePipelineTest.cpp - runProfile as a library call -------------===//
//
// runProfile on Inputs/mapped.yaml's program: the counts of a profile, the
// two kinds of error (a request that does not hold together, an input),
// outputs left as they were on an error, and runs on several threads at
// once giving what one run gives.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Pipeline/ProfilePipeline.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <string>
#include <thread>
#include <vector>

using namespace llvm;

namespace bbmap {
namespace {

/// A scratch directory with the profile of the program's one run: the jump
/// over the nops taken 3 times of 10.
class ProfilePipelineTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("pipeline", Dir));
    Profile = path("run.pa");
    write(Profile, "B 401002 401006 3 0\nF 401000 401002 10\n"
                   "F 401004 401006 7\nF 401006 401006 10\n");
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string path(StringRef Name) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    return std::string(P);
  }
  static void write(StringRef Path, StringRef Text) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << EC.message();
    OS << Text;
  }
  static std::string read(StringRef Path) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : "<" + B.getError().message() + ">";
  }
  /// One profile of the program, written as \p Format to \p Output.
  ProfileRequest request(OutputFormat Format, StringRef Output) const {
    ProfileRequest R;
    R.BinaryPath = BBMAP_MAPPED_PROGRAM;
    ProfileSource S;
    S.Format = ProfileFormat::PreAggregated;
    S.Path = Profile;
    R.Sources.push_back(S);
    R.Outputs.push_back({Format, Output.str()});
    R.Threads = 1;
    return R;
  }
  /// Runs \p R; the warnings and notes it printed go to \p Messages.
  static Expected<ProfileOutcome> run(const ProfileRequest &R,
                                      std::string &Messages) {
    raw_string_ostream Err(Messages);
    Diagnostics Diags("test", nulls(), Err);
    return runProfile(R, Diags);
  }

  SmallString<128> Dir;
  std::string Profile;
};

TEST_F(ProfilePipelineTest, WritesTheCounts) {
  std::string Messages;
  Expected<ProfileOutcome> Run =
      run(request(OutputFormat::JSON, path("out.json")), Messages);
  ASSERT_TRUE(bool(Run)) << toString(Run.takeError());
  EXPECT_EQ(Messages, "");
  EXPECT_TRUE(Run->HasBranches);
  EXPECT_EQ(Run->Skipped, 0u);
  std::string JSON = read(path("out.json"));
  EXPECT_NE(JSON.find(R"("Name":"main")"), std::string::npos) << JSON;
  EXPECT_NE(JSON.find(R"("EntryCount":10)"), std::string::npos) << JSON;
  EXPECT_NE(JSON.find(R"("ID":1,"Range":0,"Address":4198404,"Size":2,)"
                      R"("Count":7)"),
            std::string::npos)
      << JSON;
}

TEST_F(ProfilePipelineTest, LaysOut) {
  std::string Messages;
  ProfileRequest R = request(OutputFormat::Clusters, path("out.clusters"));
  R.Outputs.push_back({OutputFormat::SymbolOrder, path("out.order")});
  Expected<ProfileOutcome> Run = run(R, Messages);
  ASSERT_TRUE(bool(Run)) << toString(Run.takeError());
  EXPECT_EQ(read(path("out.clusters")), "v1\nf main\nc 0 1 2\n");
  EXPECT_EQ(read(path("out.order")), "main\n"); // Every block ran.
}

TEST_F(ProfilePipelineTest, RequestErrorWritesNothing) {
  write(path("out.json"), "old");
  ProfileRequest R = request(OutputFormat::JSON, path("out.json"));
  R.PlacedBinaryPath = BBMAP_MAPPED_PROGRAM; // Only with a placement.
  std::string Messages;
  Expected<ProfileOutcome> Run = run(R, Messages);
  ASSERT_FALSE(bool(Run));
  EXPECT_TRUE(Run.errorIsA<RequestError>());
  EXPECT_EQ(toString(Run.takeError()),
            "--placed-binary and --process-perfdata go with "
            "--format=placement");
  EXPECT_EQ(read(path("out.json")), "old");

  R = request(OutputFormat::JSON, path("out.json"));
  R.Outputs.clear();
  Run = run(R, Messages);
  ASSERT_FALSE(bool(Run));
  EXPECT_TRUE(Run.errorIsA<RequestError>());
  consumeError(Run.takeError());
}

TEST_F(ProfilePipelineTest, InputErrorNamesTheFile) {
  write(path("out.json"), "old");
  ProfileRequest R = request(OutputFormat::JSON, path("out.json"));
  write(Profile, "B 401002 401006 3 0\nQ 1 2 3\n");
  std::string Messages;
  Expected<ProfileOutcome> Run = run(R, Messages);
  ASSERT_FALSE(bool(Run));
  EXPECT_FALSE(Run.errorIsA<RequestError>());
  std::string Message = toString(Run.takeError());
  EXPECT_EQ(Message.rfind("'" + Profile + "': ", 0), 0u) << Message;
  EXPECT_NE(Message.find("run.pa:2: expected T, R, S, E, B, F, f or r"),
            std::string::npos)
      << Message;
  EXPECT_EQ(read(path("out.json")), "old");
}

/// An error after the outputs were opened (nothing to lay out) leaves both
/// as they were and no temporary file in the directory.
TEST_F(ProfilePipelineTest, LateErrorLeavesOutputsAlone) {
  write(Profile, "B 10 20 3 0\n");
  write(path("out.clusters"), "old clusters");
  ProfileRequest R = request(OutputFormat::Clusters, path("out.clusters"));
  R.Outputs.push_back({OutputFormat::SymbolOrder, path("out.order")});
  std::string Messages;
  Expected<ProfileOutcome> Run = run(R, Messages);
  ASSERT_FALSE(bool(Run));
  EXPECT_NE(toString(Run.takeError()).find("no layout written"),
            std::string::npos);
  EXPECT_EQ(read(path("out.clusters")), "old clusters");
  EXPECT_FALSE(sys::fs::exists(path("out.order")));
  std::error_code EC;
  std::vector<std::string> Left;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    Left.push_back(sys::path::filename(I->path()).str());
  llvm::sort(Left);
  EXPECT_EQ(Left, (std::vector<std::string>{"out.clusters", "run.pa"}));
}

/// runProfile may run on several threads at once, each request on several
/// threads of its own: every run writes what one run alone writes.
TEST_F(ProfilePipelineTest, ConcurrentRunsAgree) {
  std::string Messages;
  ProfileRequest One = request(OutputFormat::JSON, path("one.json"));
  ASSERT_TRUE(bool(run(One, Messages)));
  std::string Expected = read(path("one.json"));
  constexpr unsigned Runs = 4;
  std::vector<std::thread> Threads;
  std::vector<std::string> Errors(Runs);
  for (unsigned I = 0; I < Runs; ++I)
    Threads.emplace_back([&, I] {
      ProfileRequest R = request(OutputFormat::JSON,
                                 path("run" + std::to_string(I) + ".json"));
      R.Threads = 2;
      std::string M;
      if (auto Run = run(R, M); !Run)
        Errors[I] = toString(Run.takeError());
    });
  for (std::thread &T : Threads)
    T.join();
  for (unsigned I = 0; I < Runs; ++I) {
    EXPECT_EQ(Errors[I], "");
    EXPECT_EQ(read(path("run" + std::to_string(I) + ".json")), Expected);
  }
}

} // namespace
} // namespace bbmap
