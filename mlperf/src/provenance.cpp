// provenance.json (provenance.hpp): who and what produced a result, built from this host and the
// job, and read back by `dlgen mlperf validate`.
#include "dlgen/mlperf/provenance.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include "dlgen/core/json.hpp"

#include "dlgen/core/job_io.hpp"
#include "dlgen/core/limits.hpp"

#ifndef DLGEN_GIT_COMMIT
#define DLGEN_GIT_COMMIT "unknown"
#endif

namespace dlgen::mlperf {

HostInfo this_host() {
  HostInfo h;
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  h.name = name;
  utsname u{};
  if (::uname(&u) == 0) h.kernel = u.release;
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  h.cpus = cpus > 0 ? static_cast<std::uint32_t>(cpus) : 0;
  h.ram_bytes = limits::host_memory_bytes();
  return h;
}

const char* build_commit() {
  return DLGEN_GIT_COMMIT[0] ? DLGEN_GIT_COMMIT : "unknown";
}

std::string job_text_hash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

Provenance make_provenance(const Job& job, const std::string& rules,
                           const std::string& command_line) {
  Provenance p;
  p.version = DLGEN_VERSION;
  p.commit = build_commit();
  p.rules = rules;
  p.host = this_host();
  p.job_name = job.name;
  p.job_toml = to_toml(job);
  p.job_hash = job_text_hash(p.job_toml);
  p.parameters = job_parameters(job);
  p.command_line = command_line;
  return p;
}

std::string provenance_json(const Provenance& p) {
  nlohmann::ordered_json j;
  j["schema"] = "dlgen-provenance/1";
  j["tool"] = {{"name", p.tool}, {"version", p.version}, {"git_commit", p.commit}};
  j["rules"] = p.rules;
  j["host"] = {{"name", p.host.name},
               {"kernel", p.host.kernel},
               {"cpus", p.host.cpus},
               {"ram_bytes", p.host.ram_bytes}};
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  for (const auto& [k, v] : p.parameters) params[k] = v;
  j["job"] = {{"name", p.job_name}, {"hash", p.job_hash}, {"toml", p.job_toml}};
  j["parameters"] = params;
  j["workload"] = p.workload;
  j["accelerator"] = p.accelerator;
  j["command_line"] = p.command_line;
  j["run"] = p.run;
  j["warmup"] = p.warmup;
  j["start"] = p.start;
  j["end"] = p.end;
  j["invocation_start_unix_s"] = p.invocation_start_unix_s;
  j["end_unix_s"] = p.end_unix_s;
  j["clients"] = {{"hosts", p.clients.hosts},
                  {"ranks", p.clients.ranks},
                  {"accelerators", p.clients.accelerators},
                  {"ram_bytes", p.clients.ram_bytes},
                  {"measured_ram_bytes", p.clients.measured_ram_bytes}};
  return j.dump(2) + "\n";
}

Result<Provenance> parse_provenance(const std::string& text, const std::string& where) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return input_error(where + ": not a JSON object");
  auto str = [&](const nlohmann::json& o, const char* key, const std::string& path,
                 std::string& out) -> Result<void> {
    if (!o.is_object() || !o.contains(key) || !o[key].is_string())
      return input_error(where + ": " + path + ": missing or not a string");
    out = o[key].get<std::string>();
    return ok();
  };
  Provenance p;
  const nlohmann::json none = nlohmann::json::object();
  const nlohmann::json& tool = j.contains("tool") ? j["tool"] : none;
  const nlohmann::json& host = j.contains("host") ? j["host"] : none;
  const nlohmann::json& job = j.contains("job") ? j["job"] : none;
  for (Result<void> r :
       {str(tool, "name", "tool.name", p.tool), str(tool, "version", "tool.version", p.version),
        str(tool, "git_commit", "tool.git_commit", p.commit), str(j, "rules", "rules", p.rules),
        str(host, "name", "host.name", p.host.name),
        str(host, "kernel", "host.kernel", p.host.kernel), str(job, "name", "job.name", p.job_name),
        str(job, "hash", "job.hash", p.job_hash), str(job, "toml", "job.toml", p.job_toml),
        str(j, "command_line", "command_line", p.command_line), str(j, "start", "start", p.start),
        str(j, "end", "end", p.end)})
    if (!r) return r.error();
  if (!host.contains("cpus") || !host["cpus"].is_number_unsigned() || !host.contains("ram_bytes") ||
      !host["ram_bytes"].is_number_unsigned())
    return input_error(where + ": host.cpus, host.ram_bytes: missing or not numbers");
  p.host.cpus = host["cpus"].get<std::uint32_t>();
  p.host.ram_bytes = host["ram_bytes"].get<std::uint64_t>();
  if (!j.contains("parameters") || !j["parameters"].is_object() || j["parameters"].empty())
    return input_error(where + ": parameters: missing or empty");
  for (const auto& [k, v] : j["parameters"].items())
    p.parameters.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
  p.workload = j.value("workload", "");
  p.accelerator = j.value("accelerator", "");
  p.run = j.value("run", 0u);
  p.warmup = j.value("warmup", false);
  p.invocation_start_unix_s = j.value("invocation_start_unix_s", 0.0);
  p.end_unix_s = j.value("end_unix_s", 0.0);
  if (j.contains("clients")) {
    const nlohmann::json& c = j["clients"];
    for (const char* key : {"hosts", "ranks", "accelerators", "ram_bytes", "measured_ram_bytes"})
      if (!c.is_object() || !c.contains(key) || !c[key].is_number_unsigned())
        return input_error(where + ": clients." + key + ": missing or not a number");
    p.clients.hosts = c["hosts"].get<std::uint32_t>();
    p.clients.ranks = c["ranks"].get<std::uint32_t>();
    p.clients.accelerators = c["accelerators"].get<std::uint64_t>();
    p.clients.ram_bytes = c["ram_bytes"].get<std::uint64_t>();
    p.clients.measured_ram_bytes = c["measured_ram_bytes"].get<std::uint64_t>();
    p.has_clients = true;
  }
  return p;
}

}  // namespace dlgen::mlperf
