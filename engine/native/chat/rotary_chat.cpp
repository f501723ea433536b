// Rotary's C face of llama.cpp's chat layer (common/chat.cpp): render a conversation with a
// model's own template, and split a streamed reply into thinking, answer and tool calls the
// way llama-server does (common_chat_parse on the text so far, common_chat_msg_diff against
// the last parse). Strings cross as UTF-8 JSON; every string returned is freed with
// rotary_chat_free_string. No exception leaves this file: a failure returns NULL (or a JSON
// object with "error") and rotary_chat_last_error says why.

#include "chat.h"
#include "log.h"

#include <cstring>
#include <exception>
#include <string>

using json = common_json;   // llama.cpp's own wrapper: one JSON library in the process

#if defined(_WIN32)
#define ROTARY_API extern "C" __declspec(dllexport)
#else
#define ROTARY_API extern "C" __attribute__((visibility("default")))
#endif

namespace {

thread_local std::string last_error;

char * copy_out(const std::string & text) {
    char * out = static_cast<char *>(std::malloc(text.size() + 1));
    if (out != nullptr) {
        std::memcpy(out, text.c_str(), text.size() + 1);
    }
    return out;
}

char * fail(const std::exception & error) {
    last_error = error.what();
    return nullptr;
}

struct reply_parser {
    common_chat_parser_params params;
    std::string               text;
    common_chat_msg           msg;
};

json diff_json(const common_chat_msg_diff & diff) {
    json out = json::object();
    if (!diff.reasoning_content_delta.empty()) {
        out["thinking"] = diff.reasoning_content_delta;
    }
    if (!diff.content_delta.empty()) {
        out["answer"] = diff.content_delta;
    }
    if (diff.tool_call_index != std::string::npos) {
        out["tool_index"] = static_cast<uint64_t>(diff.tool_call_index);
        out["tool_name"]  = diff.tool_call_delta.name;
        out["tool_arguments"] = diff.tool_call_delta.arguments;
    }
    return out;
}

}  // namespace

ROTARY_API const char * rotary_chat_last_error(void) { return last_error.c_str(); }

ROTARY_API void rotary_chat_free_string(char * text) { std::free(text); }

// The model's template (its text as the GGUF holds it) with its BOS and EOS texts.
ROTARY_API common_chat_templates * rotary_chat_templates_init(const char * source, const char * bos,
                                                              const char * eos) {
    try {
        // This library's own copy of llama.cpp's log: its notes on templates ("outdated gemma4
        // template", tool-call hints) are llama-server's for an operator, not an app user's.
        common_log_set_verbosity_thold(-1);
        return common_chat_templates_init(nullptr, source, bos, eos).release();
    } catch (const std::exception & error) {
        last_error = error.what();
        return nullptr;
    }
}

ROTARY_API void rotary_chat_templates_free(common_chat_templates * templates) {
    common_chat_templates_free(templates);
}

// request: {"messages": [OpenAI-style messages], "enable_thinking": bool,
//           "kwargs": {name: value} for the template, "add_generation_prompt": bool}
// returns: {"prompt", "format", "generation_prompt", "parser", "supports_thinking",
//           "thinking_start_tag", "thinking_end_tags", "preserved_tokens", "additional_stops",
//           "tool_triggers"}
ROTARY_API char * rotary_chat_apply(const common_chat_templates * templates, const char * request) {
    try {
        const json in = json::parse(request);
        common_chat_templates_inputs inputs;
        inputs.messages = common_chat_msgs_parse_oaicompat(in.at("messages"));
        inputs.add_generation_prompt = in.value<bool>("add_generation_prompt", true);
        inputs.enable_thinking = in.value<bool>("enable_thinking", true);
        inputs.reasoning_format = COMMON_REASONING_FORMAT_DEEPSEEK;   // llama-server's default
        if (in.contains("tools")) {
            inputs.tools = common_chat_tools_parse_oaicompat(in.at("tools"));
        }
        const json kwargs = in.value("kwargs", json::object());   // items() views it: keep it alive
        for (const auto & [key, value] : kwargs.items()) {
            inputs.chat_template_kwargs[key] = value.dump();
        }
        const common_chat_params params = common_chat_templates_apply(templates, inputs);
        json out = json::object();
        out["prompt"] = params.prompt;
        out["format"] = static_cast<int>(params.format);
        out["format_name"] = std::string(common_chat_format_name(params.format));
        out["generation_prompt"] = params.generation_prompt;
        out["parser"] = params.parser;
        out["supports_thinking"] = params.supports_thinking;
        out["thinking_start_tag"] = params.thinking_start_tag;
        out["thinking_end_tags"] = params.thinking_end_tags;
        out["preserved_tokens"] = params.preserved_tokens;
        out["additional_stops"] = params.additional_stops;
        std::vector<std::string> triggers;     // what starts a tool call (words or patterns)
        for (const auto & trigger : params.grammar_triggers) {
            triggers.push_back(trigger.value);
        }
        out["tool_triggers"] = triggers;
        return copy_out(out.dump());
    } catch (const std::exception & error) {
        return fail(error);
    }
}

// params: {"format": int, "generation_prompt": str, "parser": str} from rotary_chat_apply.
ROTARY_API reply_parser * rotary_chat_parser_new(const char * params_json) {
    try {
        const json in = json::parse(params_json);
        auto * parser = new reply_parser();
        parser->params.format = static_cast<common_chat_format>(in.at("format").get<int>());
        parser->params.generation_prompt = in.value("generation_prompt", "");
        parser->params.reasoning_format = COMMON_REASONING_FORMAT_DEEPSEEK;
        parser->params.parse_tool_calls = true;
        const std::string arena = in.value("parser", "");
        if (!arena.empty()) {
            parser->params.parser.load(arena);
        }
        return parser;
    } catch (const std::exception & error) {
        last_error = error.what();
        return nullptr;
    }
}

ROTARY_API void rotary_chat_parser_free(reply_parser * parser) { delete parser; }

// Adds text and parses all of it (partial until the reply is over); returns
// {"diffs": [{"thinking"?, "answer"?, "tool_index"?, ...}], "error"?: str}. A final parse that
// fails keeps what the partial parses found (llama-server's lenient stream does the same).
ROTARY_API char * rotary_chat_parser_feed(reply_parser * parser, const char * text, int is_partial) {
    json out = json::object();
    out["diffs"] = json::array();
    try {
        parser->text += text;
        common_chat_msg parsed = common_chat_parse(parser->text, is_partial != 0, parser->params);
        if (!parsed.empty()) {
            for (const auto & diff : common_chat_msg_diff::compute_diffs(parser->msg, parsed)) {
                out["diffs"].push_back(diff_json(diff));
            }
            parser->msg = std::move(parsed);
        }
    } catch (const std::exception & error) {
        out["error"] = std::string(error.what());
    }
    try {
        return copy_out(out.dump());
    } catch (const std::exception & error) {
        return fail(error);
    }
}
