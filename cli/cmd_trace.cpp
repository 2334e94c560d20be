// inspect and export: read a trace file, summarise it or convert it. The work lives in
// dlgen_trace (inspect.hpp); this file only wires arguments to it.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "dlgen/trace/inspect.hpp"
#include "dlgen/trace/trace_io.hpp"

namespace dlgen::cli {

void add_trace_commands(CLI::App& app, Action& action) {
  struct InspectArgs {
    std::string trace;
    bool json = false;
  };
  auto in = std::make_shared<InspectArgs>();
  auto* inspect =
      app.add_subcommand("inspect", "Summarise a trace: processes, files, ops, sizes, throughput");
  inspect->add_option("trace", in->trace, "trace file (.h5)")->required();
  inspect->add_flag("--json", in->json, "print one JSON object for scripts");
  inspect->callback([in, &action] {
    action = [in] {
      auto t = trace::read_trace(in->trace);
      if (!t) return report_error(t.error());
      auto report = trace::inspect(*t);
      std::string text = in->json ? trace::inspect_json(report) : trace::format_inspect(report);
      std::fwrite(text.data(), 1, text.size(), stdout);
      return 0;
    };
  });

  struct ExportArgs {
    std::string trace, format = "perfetto", output;
  };
  auto ex = std::make_shared<ExportArgs>();
  auto* exp = app.add_subcommand(
      "export", "Convert a trace for other tools (perfetto: Chrome trace-event JSON)");
  exp->add_option("trace", ex->trace, "trace file (.h5)")->required();
  exp->add_option("--format", ex->format, "output format")->check(CLI::IsMember({"perfetto"}));
  exp->add_option("-o,--output", ex->output, "output file ('-' for stdout)")->required();
  exp->callback([ex, &action] {
    action = [ex] {
      auto t = trace::read_trace(ex->trace);
      if (!t) return report_error(t.error());
      if (ex->output == "-") {
        trace::export_perfetto(*t, std::cout);
        return std::cout.flush() ? 0 : 1;
      }
      auto r = trace::export_perfetto(*t, ex->output);
      if (!r) return report_error(r.error());
      std::fprintf(stderr, "wrote %s (%zu events): open it in https://ui.perfetto.dev\n",
                   ex->output.c_str(), t->events.size());
      return 0;
    };
  });
}

}  // namespace dlgen::cli
