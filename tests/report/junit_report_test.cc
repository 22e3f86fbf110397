// JUnit structure and mapping of outcomes to elements. Validation against the XSD runs as
// a separate CTest test (xmllint), see CMakeLists.txt.
#include "report/junit_report.h"

#include <gtest/gtest.h>

#include "sample_report.h"

namespace conformance {
namespace {

std::size_t Count(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

class JUnitReportTest : public ::testing::Test {
 protected:
  const std::string xml = RenderJUnitReport(testing::SampleReport(), testing::SampleLookup());
};

TEST_F(JUnitReportTest, OneSuitePerTierInOrderOfAppearance) {
  EXPECT_EQ(Count(xml, "<testsuite "), 4u);  // load, runtime, kernel, single
  EXPECT_LT(xml.find("<testsuite name=\"load\""), xml.find("<testsuite name=\"runtime\""));
  EXPECT_LT(xml.find("<testsuite name=\"runtime\""), xml.find("<testsuite name=\"kernel\""));
  EXPECT_NE(xml.find("<testsuites name=\"plugin_conformance\" tests=\"10\" failures=\"2\" "
                     "errors=\"2\" skipped=\"3\""),
            std::string::npos)
      << xml;
}

TEST_F(JUnitReportTest, ClassnameIsTheIdWithoutItsLastComponent) {
  EXPECT_NE(xml.find("<testcase classname=\"load.se.platform\" name=\"name_regex\" time=\"0.013\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase classname=\"single\" name=\"single\""), std::string::npos);
}

TEST_F(JUnitReportTest, OutcomesMapToElements) {
  EXPECT_EQ(Count(xml, "<failure "), 2u);     // fail, unexpected_pass
  EXPECT_EQ(Count(xml, "<error "), 2u);       // crash, timeout
  EXPECT_EQ(Count(xml, "<skipped "), 3u);     // not_supported, waived, skipped
  EXPECT_EQ(Count(xml, "<system-out>"), 2u);  // warning, and the crash's plugin output
  EXPECT_NE(xml.find("type=\"unexpected_pass\""), std::string::npos);
  EXPECT_NE(xml.find("type=\"crash\""), std::string::npos);
  EXPECT_NE(xml.find("type=\"timeout\""), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"waived: vendor ticket &lt;1234&gt; (event stuck in "
                     "pending)\"/>"),
            std::string::npos)
      << xml;
}

TEST_F(JUnitReportTest, PropertiesCarryTheRunSettings) {
  EXPECT_NE(xml.find("<property name=\"seed\" value=\"18446744073709551615\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<property name=\"profile\" value=\"tf2.15\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<property name=\"plugin\" "
                     "value=\"/plugins/lib&lt;weird&gt;&amp;&quot;plugin&quot;.so\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("<property name=\"shard\" value=\"1/3\"/>"), std::string::npos);
}

TEST_F(JUnitReportTest, FailureBodiesCarryDetailsCrashAndFixHint) {
  EXPECT_NE(xml.find("TF_Code: 9"), std::string::npos);
  EXPECT_NE(xml.find("actual: my&lt;gpu&gt;"), std::string::npos);
  EXPECT_NE(xml.find("signal: SIGSEGV"), std::string::npos);
  EXPECT_NE(xml.find("last call: SP_StreamExecutor.memcpy_htod"), std::string::npos);
  EXPECT_NE(xml.find("fix: rename the platform"), std::string::npos);
}

TEST_F(JUnitReportTest, NoRawControlCharactersOrInvalidBytes) {
  for (char c : xml) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_FALSE(byte < 0x20 && c != '\n' && c != '\t') << "raw control byte " << int(byte);
    EXPECT_NE(byte, 0xFF);
  }
  EXPECT_NE(xml.find("\\x01\\x02\\x1B[31m"), std::string::npos);
}

TEST_F(JUnitReportTest, BacktraceFramesKeepTheSymbolizersNumbersOnly) {
  EXPECT_NE(xml.find("\n  #0 memcpy_htod (libplugin.so+0x1234)\n"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("#0 #0"), std::string::npos) << xml;
}

TEST_F(JUnitReportTest, PluginOutputIsTheTestcasesSystemOut) {
  EXPECT_NE(xml.find("</error>\n      <system-out>plugin output:\nplugin: init &lt;dev0&gt; &amp; "
                     "go\nplugin: second line\n</system-out>\n    </testcase>"),
            std::string::npos)
      << xml;
}

TEST(JUnitReportEmptyTest, NoResultsIsStillAValidDocument) {
  RunReport report;
  const std::string xml = RenderJUnitReport(report);
  EXPECT_NE(xml.find("<testsuites name=\"plugin_conformance\" tests=\"0\""), std::string::npos);
  EXPECT_NE(xml.find("</testsuites>"), std::string::npos);
}

}  // namespace
}  // namespace conformance

namespace conformance {
namespace {

TEST(JUnitReportRootCausesTest, PropertyPerCauseAndANoteInEachFailure) {
  const std::string xml = RenderJUnitReport(testing::SampleReport(), testing::SampleLookup());
  EXPECT_NE(xml.find("<property name=\"root_cause\" value=\"memcpy_htod: crashed [checks: "
                     "runtime.memcpy.htod.unaligned runtime.stream.sync]\"/>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find(">root cause 2 of 2: memcpy_htod: crashed (shared by 2 checks)\n"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<property name=\"not_conformant_reason\""), std::string::npos);
  EXPECT_EQ(xml.find("#0 #0"), std::string::npos);  // frames are numbered once
}

TEST(JUnitReportRootCausesTest, AKernelCallbacksCauseNamesItsKernel) {
  const std::string xml = RenderJUnitReport(testing::KernelSampleReport());
  EXPECT_NE(
      xml.find("<property name=\"root_cause\" value=\"compute_func (Relu): wrong values "
               "[checks: kernel.Relu.float.special_values kernel.Relu.half.special_values]\"/>"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find(">root cause 2 of 3: compute_func (MatMul): wrong values\n"),
            std::string::npos)
      << xml;
}

}  // namespace
}  // namespace conformance
