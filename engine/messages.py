"""Every sentence the engine says to a person, by code: one catalogue for every surface.

After Anki's backend: the engine raises errors and writes reports with a **message code and
parameters** (``Msg``), never a finished sentence. Whoever shows it renders it: the command
line and the log in English (``str(msg)``), the app in the interface's language
(``app/text/messages.py``, which translates the template and then fills in the same parameters).
Translations of these templates live in the .ts files (``resources/i18n/rotary_<lang>.ts``,
Qt Linguist's format) under the context ``engine``; the build writes the .qm from them.

Adding a sentence: put ``"area.what": "Template with {param}."`` in ``CATALOGUE`` (codes are
grouped by the engine folder that says them), raise or report ``msg("area.what", param=…)``,
run ``python resources/i18n/build_translations.py`` (it adds the template to each .ts,
unfinished) and translate it there (Qt Linguist, or the file's ``<translation>``); a test
fails until you do.
A parameter may itself be a ``Msg`` (rendered in the same language), a number (formatted by
the template, e.g. ``{gib:.1f}``) or a string that is data, not words (a path, a name).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Callable

CATALOGUE: dict[str, str] = {
    # ---- engine/runtime, engine/api: requests ------------------------------------------
    "engine.sentences": "{first} {second}",          # sentences(): one after another
    "units.gb": "{gb} GB",                            # size(): an amount of memory
    "units.mb": "{mb} MB",                            # size(): below 0.1 GB
    "engine.no_model": "No model is loaded yet. Choose a model in Settings.",
    "engine.unexpected": "Something went wrong inside the engine.",
    # ---- engine/documents: what a document holds, how it is read, why it cannot be -----
    "documents.pages_one": "1 page",
    "documents.pages": "{n:,} pages",
    "documents.sections_one": "1 section",
    "documents.sections": "{n:,} sections",
    "documents.lines_one": "1 line",
    "documents.lines": "{n:,} lines",
    "documents.words": "{n} words",
    "documents.words_about": "about {n:,} words",
    "documents.found": "{found}, {words}",
    "documents.sentence": "{text}.",
    "documents.preset.short": "Short summary",
    "documents.preset.detailed": "Detailed summary",
    "documents.preset.bullets": "Bullet points",
    "documents.preset.actions": "Action items",
    "documents.read_one_pass": "read in one pass",
    "documents.read_parts": "read in {n} parts",
    "documents.in_one_pass": "in one pass",
    "documents.in_parts": "in {n} parts",
    "documents.here.under_minute": "less than a minute on this computer",
    "documents.here.minute": "about 1 minute on this computer",
    "documents.here.minutes": "about {n} minutes on this computer",
    "documents.here.hours": "about {n:.1f} hours on this computer",
    "documents.server.under_minute": "less than a minute on the office server",
    "documents.server.minute": "about 1 minute on the office server",
    "documents.server.minutes": "about {n} minutes on the office server",
    "documents.server.hours": "about {n:.1f} hours on the office server",
    "documents.left.under_minute": "Less than a minute left.",
    "documents.left.minute": "About 1 minute left.",
    "documents.left.minutes": "About {n} minutes left.",
    "documents.overview": "{found}, {how}.",
    "documents.overview_timed": "{found}, {how}, {duration}.",
    "documents.page_list_more": "{pages} and {n} more",
    "documents.skipped_page": "Page {pages} has no text (probably a picture) and will be skipped.",
    "documents.skipped_pages": "Pages {pages} have no text (probably pictures) and will be skipped.",
    "documents.unread_page": "Page {pages} has no text and could not be read.",
    "documents.unread_pages": "Pages {pages} have no text and could not be read.",
    "documents.ocr_page": "Page {pages} is a picture (probably scanned): text recognition read it in {seconds:.0f} s.",
    "documents.ocr_pages": "Pages {pages} are pictures (probably scanned): text recognition read them in {seconds:.0f} s.",
    "documents.note.all": "Read all of it ({found}) {how}.",
    "documents.note.all_unfinished": "Read all of it ({found}) {how}, but stopped before the summary was finished.",
    "documents.note.none": "Stopped before any of it ({found}) was read.",
    "documents.note.partial": "Partial: read {done} of {parts} parts of it ({found}); the rest was not read.",
    "documents.note.partial_pages": "Partial: read {where} of {found} ({done} of {parts} parts); the rest was not read.",
    "documents.partial_notice": "Partial summary: stopped before the end.",
    "documents.progress.whole": "Reading the whole document and writing the summary…",
    "documents.progress.part": "Reading part {part} of {parts}…",
    "documents.progress.combining": "Writing the summary from the notes on all {parts} parts…",
    "documents.progress.ocr": "Reading page {page} of {pages} with text recognition…",
    "documents.progress.searching": "Looking for the passages that answer your question…",
    "documents.progress.reading_passages": "Reading {n} passages from {where}…",
    "documents.page_ref": "p. {page}",
    "documents.pages_ref": "pp. {pages}",
    "documents.section_ref": "section “{heading}”",
    "documents.lines_ref": "lines {lines}",
    "documents.beginning_ref": "the beginning",
    "documents.in_document": "{name}, {where}",
    "documents.list_pair": "{first}; {second}",
    "documents.whole_document": "{name} (all of it)",
    "documents.read_for_answer": "Read for this answer: {where}.",
    "documents.read_whole_for_answer": "Read all of it for this answer ({where}), {how}.",
    "documents.citation_not_found": "not found on {where}",
    "documents.citation_no_page": "the document has no {where}",
    "documents.citations_checked": "{passed} of {checked} page references checked against the pages.",
    # errors
    "documents.old_word": "'{name}' is in the old Word format (.doc). Open it in Word and save it as .docx, then drop it here again.",
    "documents.unsupported": "Rotary cannot read '{name}'. It reads PDF, Word (.docx), text and Markdown files.",
    "documents.cannot_open": "'{name}' could not be opened.",
    "documents.is_folder": "'{name}' is a folder, not a document.",
    "documents.empty_file": "'{name}' is empty.",
    "documents.no_text": "'{name}' contains no text to read.",
    "documents.too_many_bytes": "'{name}' is {mb:,.0f} MB; Rotary reads documents up to {limit:,.0f} MB.",
    "documents.not_pdf": "This file is not a PDF, although its name ends in .pdf.",
    "documents.too_many_pages": "This PDF has {n:,} pages; Rotary reads documents up to {limit:,} pages.",
    "documents.pictures_only": "This PDF's pages are pictures (probably scanned), and text recognition is not installed with this copy of Rotary, so it cannot read them.",
    "documents.pictures_unreadable": "This PDF's pages are pictures (probably scanned), and text recognition found no words on them.",
    "documents.pdf_password": "This PDF is protected by a password. Open it, save a copy without the password, and drop that copy here.",
    "documents.pdf_damaged": "This PDF is damaged and could not be opened.",
    "documents.pdf_too_much_text": "This PDF holds more text than Rotary can read at once (it stopped at page {page} of {pages}).",
    "documents.word_password": "This Word file is protected by a password (or is an old .doc renamed to .docx). Open it in Word, save a copy without the password as .docx, and drop that copy here.",
    "documents.word_damaged": "This Word file is damaged and could not be opened.",
    "documents.not_word": "This file is not a Word document, although its name ends in .docx.",
    "documents.really_is": "'{name}' is really {what}, although its name ends in {suffix}. {advice}",
    "documents.is_excel": "an Excel workbook",
    "documents.is_old_excel": "an old Excel workbook (.xls)",
    "documents.is_powerpoint": "a PowerPoint presentation",
    "documents.is_old_powerpoint": "an old PowerPoint presentation (.ppt)",
    "documents.is_old_word": "an old Word document (.doc)",
    "documents.is_opendocument": "an OpenDocument file (LibreOffice)",
    "documents.is_zip": "a ZIP archive",
    "documents.is_old_office": "an old Microsoft Office file",
    "documents.is_locked_office": "an Office file protected by a password",
    "documents.is_rtf": "a Rich Text document (.rtf)",
    "documents.is_picture": "a picture",
    "documents.advice_pdf": "Open it in the program that made it, save it as PDF (or as .docx), and attach that file.",
    "documents.advice_docx": "Open it in Word, save it as .docx, and attach that file.",
    "documents.advice_unzip": "Unpack it and attach the documents inside.",
    "documents.advice_picture": "Rotary reads text, not pictures: attach the document itself, or a PDF of it.",
    "documents.advice_password": "Open it, save a copy without the password as PDF or .docx, and attach that copy.",
    "documents.word_too_big": "This Word file unpacks to more data than Rotary reads ({mb:,.0f} MB).",
    "documents.text_too_long": "This text file holds more text than Rotary can read at once.",
    "documents.not_text": "This file does not contain readable text, although its name says it is a text file.",
    "documents.binary": "This file does not contain text (it looks like a program or a picture), although its name says it is a text file.",
    "documents.no_preset": "There is no summary style called '{name}'.",
    "documents.context_too_small": "The model's memory (context) is too small to read documents. Choose a larger context in Settings.",
    "documents.split_failed": "The document could not be split to fit the model's memory.",
    "documents.ocr_stopped": "Text recognition was stopped, so the document was not read.",
    "documents.nothing_to_search": "This conversation has no documents to search. Attach one first.",
    "documents.not_indexed": "'{name}' is no longer in Rotary's list of read documents. Attach it again.",
    "engine.no_model_for_document": "No model is loaded yet, so the document cannot be read. "
                                    "Choose a model in Settings.",
    "engine.document_stopped_before_start": "The document was not read: it was stopped before "
                                            "it started.",
    # engine/cli/: the command line, for IT
    "engine.name_a_model": "Name a model file, or an office server with --server URL.",
    "engine.name_a_model_option": "Name a model file with --model, or an office server with "
                                  "--server URL.",
    "engine.no_experts_to_record": "This model has no experts, so there is no routing to "
                                   "record.",

    # ---- engine/runtime: loading and running a model here ---------------------------------
    "runtime.checking_file": "Checking the model file…",
    "runtime.loading_into_memory": "Loading the model into memory…",
    # engine/runtime/devices/backend_probe.py: two back-ends serve the card; measured once
    "runtime.finding_faster_backend": "Finding the faster way to use your graphics card "
                                      "(once)…",
    "runtime.ready": "The model is ready.",
    "runtime.summary_with_note": "{summary} {note}",
    "runtime.stock_build": "This build of Rotary cannot copy the parts of the model a "
                           "conversation uses most to the graphics card, so whole parts of "
                           "the model are placed there instead.",
    "runtime.slots_not_set_up": "Rotary could not copy the parts of the model a conversation "
                                "uses most to the graphics card here, so whole parts of the "
                                "model are placed there instead.",
    "runtime.no_memory_for_slots": "There was not enough graphics memory to copy the parts of "
                                   "the model a conversation uses most to the graphics card.",
    "runtime.not_enough_memory_to_load": "There was not enough memory to load this model with "
                                         "the current settings.",
    "runtime.model_not_loaded": "The model file {name} could not be loaded.",
    "runtime.no_experts_for_slots": "This model has no experts to keep on the graphics card.",
    "runtime.not_enough_memory": "This computer does not have enough memory for this model, "
                                 "even with the smallest settings. Try a smaller model.",
    "runtime.fewer_slots": "Not enough graphics memory, so less of the model is kept on the "
                           "graphics card.",
    # where the loaded model actually is (engine/runtime/devices/placement.py), never the plan
    # (sizes are size() messages: "5.4 GB", or "20 MB" for a tiny model, never "0.0 GB")
    "runtime.placed_gpu": "The model runs on the graphics card {device}: {gpu} of it there and "
                          "{ram} in main memory.",
    "runtime.placed_software": "The model runs on {device}, software that imitates a graphics "
                               "card on the processor: {gpu} of it there and {ram} in main "
                               "memory. It writes much more slowly than the processor alone.",
    "runtime.placed_gpu_slots": "The model runs on the graphics card {device}: {gpu} of it there "
                                "({slots} of it for the parts the conversation uses most) and "
                                "{ram} in main memory.",
    "runtime.placed_processor": "The model runs on the processor ({ram} in main memory); no "
                                "graphics card is used.",
    "runtime.placed_processor_unmeasured": "The model runs on the processor; no graphics "
                                           "card is used.",
    "runtime.placed_with_unused": "{placed} {unused}",
    "runtime.stopped_unexpectedly": "The model stopped unexpectedly while writing.",
    "runtime.chat_format_unsupported": "Rotary does not know how to hold a conversation with "
                                       "this model.",
    "runtime.chat_layer_missing": "This installation of Rotary is incomplete: the part that "
                                  "writes conversations for the model is missing. Install "
                                  "Rotary again.",
    "runtime.tool_call_not_offered": "(The model asked to use a tool, \"{name}\", which Rotary "
                                     "does not offer, so nothing was run.)",
    "runtime.tool_call_not_offered_unnamed": "(The model asked to use a tool, which Rotary does "
                                             "not offer, so nothing was run.)",
    "runtime.conversation_too_long": "This conversation is too long for the model's memory. "
                                     "Start a new chat or shorten the text.",
    "runtime.answer_loops": "The model started repeating the same words over and over, so "
                            "Rotary stopped it and kept them once. Try Write again, or another "
                            "model in Settings.",
    "runtime.document_step_loops": "The model started repeating the same words over and over "
                                   "while reading this document, so Rotary stopped and kept no "
                                   "summary. Try again, or another model in Settings.",
    "runtime.thought_for": "Thought for {words:,} words",
    "runtime.thought_for_stopped": "Thought for {words:,} words, stopped to answer",
    "runtime.message_too_long": "This message is too long for the model's memory: {words:,} "
                                "words, where it can take about {room:,}. Attach it as a "
                                "document instead, or shorten it; your earlier messages are "
                                "kept.",
    "sampling.from_model_file": "The model file's own: answer variety (temperature) "
                                "{temperature}, top-p {top_p}, top-k {top_k}.",
    "sampling.from_family": "Recommended for this kind of model: answer variety "
                            "(temperature) {temperature}, top-p {top_p}, top-k {top_k}.",
    "sampling.from_rotary": "Rotary's usual: answer variety (temperature) {temperature}, "
                            "top-p {top_p}, top-k {top_k}.",
    "sampling.with_min_p": "{said} Min-p {min_p}.",

    # ---- engine/model: reading a model file ------------------------------------------------
    "model.not_found": "The model file “{name}” could not be found. It may have been moved "
                       "or deleted.",
    "model.not_allowed": "Rotary is not allowed to open the model file “{name}”. Ask your IT "
                         "contact to let your account read it.",
    "model.unreadable": "The model file “{name}” could not be opened.",
    "model.folder": "“{name}” is a folder, not a model file. Choose the .gguf file inside it.",
    "model.not_a_model": "This file is not a model Rotary can use. Choose a .gguf model file.",
    "model.not_a_model_too_short": "This file is not a model Rotary can use: it is too short. "
                                   "Choose a .gguf model file.",
    "model.not_a_model_but": "This file is not a model Rotary can use: it looks like {kind}. "
                             "Choose a .gguf model file.",
    "model.kind_pdf": "a PDF document",
    "model.kind_zip": "a ZIP archive",
    "model.kind_png": "a PNG picture",
    "model.kind_old_model": "a model in an old format Rotary cannot read",
    "model.other_byte_order": "This model file was made for a different kind of computer. "
                              "Rotary needs the ordinary version of the file.",
    "model.format_version": "This model file is in a format Rotary cannot read (version "
                            "{version}).",
    "model.damaged": "The model file is damaged. Copy or download it again.",
    "model.incomplete": "The model file is incomplete or damaged. Copy or download it again.",
    "model.settings_unreadable": "The model file describes itself in a way Rotary cannot read.",
    "model.unknown_storage": "This model is stored in a way Rotary does not know yet.",
    "model.no_design": "The model file does not say what kind of model it is. It may be "
                       "damaged.",
    "model.unsupported_design": "Rotary cannot run this kind of model yet (its design is "
                                "called “{design}”).",

    # ---- engine/plan/hardware.py: a graphics card this installation cannot use ---------------
    "hardware.gpu_no_backend": "Rotary cannot use the graphics card {name}: this installation "
                               "has no graphics support for it, so the model runs on the "
                               "processor, more slowly. Install Rotary's package with graphics "
                               "support (or ask your IT contact to).",
    "hardware.gpu_backend_failed": "Rotary could not start the graphics card {name}, so the "
                                   "model runs on the processor, more slowly. Updating the "
                                   "graphics card's driver from its maker's website usually "
                                   "fixes this; then restart Rotary.",
    "hardware.gpu_integrated": "The graphics {name} is built into the processor and shares "
                               "main memory, so Rotary keeps the model in main memory instead.",
    "hardware.gpu_software": "{name} is not a graphics card but software that imitates one on "
                             "the processor, many times more slowly, so Rotary uses the "
                             "processor directly.",
    "hardware.no_such_device": "There is no device named {name}. `python -m engine devices` "
                               "lists the ones this installation can use.",
    # ---- engine/cli/devices.py: which build of the processor code runs (native/cpu_isa.py) ----
    "hardware.processor_code_heading": "Processor code, by the model's main weight type:",
    "hardware.processor_code_measured": "{weights} weights: {label} ({variant}), measured: it "
                                        "reads a prompt {score:.2f}× as fast as the portable "
                                        "build.",
    "hardware.processor_code_flags": "{weights} weights: {label} ({variant}), by the processor's "
                                     "flags, not measured yet.",
    "hardware.processor_code_asked": "Processor code: {label} ({variant}), as ROTARY_CPU_ISA asks.",
    "hardware.processor_code_only": "Processor code: {label} ({variant}); this processor has no "
                                    "other build to choose from.",
    # ---- engine/plan: what fits on this computer -------------------------------------------
    "plan.preset_auto": "Automatic (fit this computer)",
    "plan.preset_auto_in_a_sentence": "an automatic setting for this computer",
    "plan.preset_8gb_laptop": "Laptop with an 8 GB graphics card",
    "plan.preset_8gb_laptop_in_a_sentence":
        "the setting for laptops with an 8 GB graphics card",
    "plan.preset_12gb_desktop": "Desktop with a 12 GB graphics card",
    "plan.preset_12gb_desktop_in_a_sentence":
        "the setting for desktops with a 12 GB graphics card",
    "plan.preset_16gb_desktop": "Desktop with a 16 GB graphics card",
    "plan.preset_16gb_desktop_in_a_sentence":
        "the setting for desktops with a 16 GB graphics card",
    "plan.preset_24gb_workstation": "Workstation with a 24 GB graphics card",
    "plan.preset_24gb_workstation_in_a_sentence":
        "the setting for workstations with a 24 GB graphics card",
    "plan.preset_cpu_only": "Processor only (no graphics card)",
    "plan.preset_cpu_only_in_a_sentence": "the processor-only setting (no graphics card needed)",
    "plan.unknown_preset": "There is no setting called “{name}”.",
    "plan.unknown_setting": "One of the advanced settings is not recognised.",
    "plan.unknown_memory_format": "The conversation memory format is not recognised.",
    "plan.compact_memory_needs_fast_attention": "A compact conversation memory needs the fast "
                                                "attention option.",
    "plan.too_big": "This model is too big for this computer: it needs about {need} GB, but "
                    "the graphics card and memory together have room for about {room} GB. "
                    "Try a smaller model.",
    "plan.the_graphics_card": "the graphics card",
    "plan.note_processor_only": "The whole model runs on the processor and stays in main "
                                "memory.",
    "plan.note_all_on_card": "The whole model fits on the graphics card ({card}).",
    "plan.note_parts_on_card": "{on_gpu} of {total} parts of the model are on the graphics "
                               "card ({card}); the rest stays in main memory.",
    "plan.note_card_holds_slots": "The graphics card ({card}) holds the parts of the model "
                                  "every word uses, and {slots} of the parts the conversation "
                                  "uses most, copied there as the text goes; the rest stays "
                                  "in main memory.",
    "plan.note_parts_and_slots": "{on_gpu} of {total} parts of the model are on the graphics "
                                 "card ({card}), with {slots} more there for the parts the "
                                 "conversation uses most, copied as the text goes; the rest "
                                 "stays in main memory.",
    "plan.note_slots": "The parts kept in main memory that the conversation uses most are "
                       "also copied to the graphics card as the text goes.",
    "plan.fallback_fewer_parts": "Not enough graphics memory, so more of the model stays in "
                                 "main memory ({on_gpu} of {total} parts on the graphics card).",
    "plan.fallback_shorter_context": "Not enough memory, so the assistant keeps a shorter "
                                     "conversation in mind (about {words:,.0f} words).",
    "plan.fallback_compact_memory": "Not enough memory, so the conversation is kept in a more "
                                    "compact form; answers may be slightly less precise.",
    "plan.fallback_more_compact_memory": "Not enough memory, so the conversation is kept in an "
                                         "even more compact form; answers may be slightly "
                                         "less precise.",
    "plan.fallback_processor_only": "Not enough graphics memory, so the model runs on the "
                                    "processor only; answers will come much more slowly.",
    "plan.wont_fit_card": "This will not fit: the model needs about {need} GB on the graphics "
                          "card, but only {free} GB is free.",
    "plan.wont_fit_memory": "This will not fit: the model needs about {need} GB of memory, but "
                            "this computer has {have} GB.",
    "plan.usage_memory_only": "About {ram} in memory (the graphics card is not used); expect "
                              "{speed}.",
    "plan.usage_card_driver_and_memory": "About {vram} on the graphics card (and {driver} "
                                         "its driver keeps) and {ram} in memory; expect "
                                         "{speed}.",
    "plan.usage_card_and_memory": "About {vram} on the graphics card and {ram} in memory; "
                                  "expect {speed}.",
    "plan.usage_software_and_memory": "About {vram} on {device}, software that imitates a "
                                      "graphics card on the processor, and {ram} in memory; "
                                      "expect {speed}.",
    "plan.speed_words": "roughly {words} words per second",
    "plan.speed_one_word": "roughly 1 word per second",
    "plan.speed_under_a_word": "less than 1 word per second",
    "plan.context_pages": "It keeps about {pages:,} pages of a conversation in mind; when a "
                          "longer one fills them, its older half is set aside at once.",
    "plan.context_under_a_page": "It keeps less than a page of a conversation in mind; older "
                                 "parts of a longer one are set aside.",
    "plan.context_trained": "This model was trained for a conversation memory of up to "
                            "{trained:,} tokens, so Rotary uses {trained:,} instead of the "
                            "{asked:,} set in Settings.",
    "plan.memory_in_use": "Other programs are using memory this model needs; close some first.",
    "plan.slow": "Answers will come slowly on this computer.",
    "plan.prompt_batch": "Long texts are read {n_ubatch} words at a time instead of {stock}: each "
                         "batch copies the experts it uses to the graphics card once, so "
                         "documents are read several times faster, for {gb} GB of graphics "
                         "memory.",
    "plan.transfer_cpu_faster": "The processor works through the experts' weights at {cpu} GB/s "
                                "and the link to the graphics card copies them at {link} GB/s, "
                                "so each part copies up to {cap} of the {k} experts a word uses "
                                "and the processor computes the others.",
    "plan.transfer_link_faster": "The link to the graphics card copies the experts' weights at "
                                 "{link} GB/s, faster than the processor works through them "
                                 "({cpu} GB/s), so each part copies up to {cap} of the {k} "
                                 "experts a word uses.",
    "plan.transfer_unmeasured": "The speeds of the processor and of the link to the graphics "
                                "card could not be measured, so every expert a word uses may be "
                                "copied to the graphics card.",

    # ---- engine/remote: the office server -----------------------------------------------
    "remote.connecting": "Connecting to the office server at {address}…",
    "remote.connected": "Using {model} on the office server at {address}.",
    "remote.not_connected": "Rotary is not connected to the office server yet.",
    "remote.key_variable_unset": "The environment variable {name} is not set.",
    "remote.bad_address": "The server address must start with http:// or https:// followed by "
                          "the server's name, for example {example}.",
    "remote.bad_certificate_file": "The certificate file chosen in Settings cannot be read.",
    "remote.untrusted_certificate": "The office server at {address} has a security certificate "
                                    "this computer does not trust. Ask your IT contact for the "
                                    "office's certificate file and choose it in Settings.",
    "remote.no_answer": "The office server at {address} does not answer. Check the address, "
                        "and that this computer is on the office network.",
    "remote.too_slow": "The office server at {address} took too long to answer. It may be off "
                       "or overloaded; try again in a minute.",
    "remote.connection_failed": "The connection to the office server at {address} failed.",
    "remote.not_a_model_server": "The office server at {address} answered, but not like a "
                                 "model server. Check the address.",
    "remote.no_chat_service": "There is no model server Rotary can use at {address}. Check the "
                              "address.",
    "remote.no_model_list": "The office server at {address} did not list its models. Check "
                            "the address, or ask your IT contact.",
    "remote.model_not_offered": "The office server at {address} does not offer the model "
                                "“{model}”. Choose one of its models in Settings.",
    "remote.key_refused": "The office server refused the access key. Check the key in "
                          "Settings, or ask your IT contact for a new one.",
    "remote.busy": "The office server is busy right now. Try again in a moment.",
    "remote.busy_retry": "The office server is busy right now. It suggests trying again in "
                         "{seconds:.0f} seconds.",
    "remote.refused": "The office server could not answer (error {status}).",
    "remote.conversation_too_long": "This conversation is too long for the server's model. "
                                    "Start a new chat or shorten the text.",
    "remote.unreadable_answer": "The office server at {address} sent an answer Rotary cannot "
                                "read.",
    "remote.dropped": "The connection to the office server at {address} was lost while it "
                      "was writing.",
    "remote.dropped_kept": "The connection to the office server at {address} was lost while "
                           "it was writing. The answer so far is kept.",
    "remote.no_tokens": "The office server could not count the words of the text.",
    "remote.no_tokenizer": "The office server at {address} cannot count words, so Rotary "
                           "cannot split documents to fit its model. Chat still works.",
    "remote.cannot_count_conversation": "The office server cannot count the words of a whole "
                                        "conversation.",
    "remote.no_prompt_size": "The office server does not say how long a conversation is, so "
                             "Rotary cannot split documents to fit its model.",
    "remote.no_context_size": "The office server does not say how much text its model can "
                              "read at once, so Rotary cannot split documents to fit it.",
}


@dataclass(frozen=True)
class Msg:
    """A catalogue code and its parameters; ``str()`` is the English sentence."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return render(self)

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses ({n}, {gib:.1f} -> {"n", "gib"})."""
    return {field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(template) if field}


def msg(code: str, **params: Any) -> Msg:
    """A message, checked now: an unknown code or a missing parameter is a bug to catch
    where it is written, not when a user first meets the sentence."""
    try:
        template = CATALOGUE[code]
    except KeyError:
        raise KeyError(f"no message {code!r} in engine/messages.py CATALOGUE") from None
    missing = placeholders(template) - params.keys()
    if missing:
        raise KeyError(f"message {code!r} needs {sorted(missing)}")
    return Msg(code, tuple(sorted(params.items())))


def size(n_bytes: float, gb: float = 1e9, whole_from: float = float("inf")) -> Msg:
    """An amount of memory a person can read: "5.4 GB" (whole numbers from ``whole_from``
    GB), and in MB below 0.1 GB, where a tiny model said "0.0 GB". ``gb``: bytes in a GB
    (2**30 where the planner counts in GiB; its MB is then a MiB)."""
    value = n_bytes / gb
    if value >= 0.1:
        return msg("units.gb", gb=f"{value:.0f}" if value >= whole_from else f"{value:.1f}")
    megabytes = n_bytes / (gb / (1024 if gb == 2 ** 30 else 1000))
    return msg("units.mb", mb=f"{max(1, round(megabytes)) if n_bytes > 0 else 0}")


def sentences(*messages: Msg) -> Msg:
    """Several messages said one after another (languages differ in what goes between)."""
    if not messages:
        raise ValueError("sentences() needs at least one message")
    joined = messages[0]
    for message in messages[1:]:
        joined = msg("engine.sentences", first=joined, second=message)
    return joined


def to_data(message: Msg) -> dict[str, Any]:
    """JSON-ready: the code, the parameters (nested messages too) and the English."""
    params = {name: to_data(value) if isinstance(value, Msg) else value
              for name, value in message.params}
    return {"code": message.code, "params": params, "text": render(message)}


def from_data(data: dict[str, Any]) -> Msg:
    """The inverse of ``to_data`` (the English is ignored: it is made from the catalogue)."""
    params = {name: from_data(value) if isinstance(value, dict) and "code" in value else value
              for name, value in data.get("params", {}).items()}
    return msg(data["code"], **params)


def render(message: Msg, translate: Callable[[str], str] | None = None) -> str:
    """The sentence: the template (translated when ``translate`` is given) with its
    parameters; nested messages are rendered with the same ``translate``."""
    template = CATALOGUE[message.code]
    if translate is not None:
        template = translate(template) or template
    values = {name: render(value, translate) if isinstance(value, Msg) else value
              for name, value in message.params}
    return template.format(**values)
