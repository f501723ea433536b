"""The gauge's numbers (app.gauge.gauge_model) in plain sentences, in the interface's language:
the caption says it in words, the tooltip gives the technical term and the exact figures.
"""

from __future__ import annotations

from app.gauge.gauge_model import GaugeModel
from app.text.i18n import tr
from app.widgets.theme import gauge_colour

GB = 2**30      # shown as "GB", as Windows' Task Manager does: an 8 GB card reads 8.0


def _gb(n_bytes: int) -> str:
    return f"{n_bytes / GB:.1f}"


def _about(n: float) -> str:
    """Round to two significant figures: "about 2,900 words", not "2,873"."""
    n = int(round(n))
    if n >= 100:
        digits = len(str(n)) - 2
        n = int(round(n, -digits))
    return f"{n:,}"


def vram_text(model: GaugeModel) -> str:
    if model.server_problem == "unreachable":   # not "No graphics card": the server is
        return tr("The office server cannot be reached, so no model is running. See "
                  "the notice at the top.")
    if model.server_problem:
        return tr("The office server did not start the model. See the notice at the top.")
    if model.on_server:
        return tr("The model runs on the office server, not on this computer.")
    if model.has_gpu is False:
        return model.processor_note or tr("No graphics card: the model runs on the processor.")
    if model.vram is None and model.vram_lost:
        return tr("Graphics memory: unknown (the graphics driver stopped answering)")
    if model.vram is None:         # no live reading (only NVIDIA's driver gives one)
        return model.placed_note or tr("Graphics memory: unknown")
    return tr("Graphics memory: {used} of {total} GB in use").format(
        used=_gb(model.vram.used_bytes), total=_gb(model.vram.total_bytes))


def vram_details(model: GaugeModel) -> str:
    vram = model.vram
    if vram is None or model.has_gpu is False or model.on_server:
        return ""
    ours = (tr("Rotary {gb} GB").format(gb=_gb(vram.process_bytes))
            if vram.process_bytes is not None else tr("Rotary's share not reported"))
    return tr("Graphics memory (VRAM), measured by the NVIDIA driver: {ours}, other "
              "programs {other} GB, free {free} GB of {total} GB.").format(
        ours=ours, other=_gb(vram.used_bytes - (vram.process_bytes or 0)),
        free=_gb(vram.free_bytes), total=_gb(vram.total_bytes))


def vram_legend(model: GaugeModel) -> str:
    """What the bar's colours mean, as rich text with coloured squares."""
    vram = model.vram
    if vram is None or model.has_gpu is False or model.on_server:
        return ""
    ours = vram.process_bytes or 0

    def item(colour: str, text: str) -> str:     # one legend entry never breaks apart
        return (f'<span style="color:{gauge_colour(colour).name()}">&#9632;</span>&nbsp;'
                + text.replace(" ", "&nbsp;"))
    if vram.process_bytes is None:      # e.g. Windows: the driver does not say per program
        return item("other", tr("in use by all programs"))
    return (item("model", tr("Rotary {gb} GB").format(gb=_gb(ours))) + " &nbsp; "
            + item("other", tr("others {gb} GB").format(gb=_gb(vram.used_bytes - ours))))


def ram_text(model: GaugeModel) -> str:
    if not model.ram_bytes:
        return tr("System memory used by Rotary: unknown")
    return tr("System memory used by Rotary: {size} GB").format(size=_gb(model.ram_bytes))


def ram_details() -> str:
    return tr("Resident memory (RSS) of the Rotary process, measured by the operating system.")


def writing_text(model: GaugeModel) -> str:
    if not model.decode_tps:
        return tr("Writing speed: shown while an answer is written")
    words = model.words(model.decode_tps)
    if round(words) < 1:            # a software graphics device: under a word a second
        return tr("Writing speed: less than 1 word a second")
    if round(words) == 1:
        return tr("Writing speed: about 1 word a second")
    return tr("Writing speed: about {n} words a second").format(n=f"{words:.0f}")


def reading_text(model: GaugeModel) -> str:
    """A reading speed only where the engine measured reading: not from the office
    server, where the wait for the first word is the network, the server's queue and
    its cache (an instant one made "about 1,300,000 words a second")."""
    if not model.prompt_tps:
        return ""
    if model.on_server:
        return "" if model.ttft_s is None else \
            tr("First word after {s} s").format(s=f"{model.ttft_s:.1f}")
    words = model.words(model.prompt_tps)
    if model.reading_document:
        text = tr("Reading the document: less than 1 word a second") if round(words) < 1 \
            else tr("Reading the document: about 1 word a second") if round(words) == 1 \
            else tr("Reading the document: about {n} words a second").format(n=_about(words))
    else:
        text = tr("Reading your message: less than 1 word a second") if round(words) < 1 \
            else tr("Reading your message: about 1 word a second") if round(words) == 1 \
            else tr("Reading your message: about {n} words a second").format(n=_about(words))
    if model.ttft_s is not None and model.ttft_s < 0.05:     # read before (a cached prompt)
        text += " · " + _unbroken(tr("first word right away"))
    elif model.ttft_s is not None:   # one phrase: "6.2초 후 첫" broke before "단어"
        text += " · " + _unbroken(tr("first word after {s} s").format(s=f"{model.ttft_s:.1f}"))
    return text


def speed_details(model: GaugeModel) -> str:
    if not model.decode_tps and not model.prompt_tps:
        return tr("Speeds are measured by the engine while it writes an answer.")
    if model.on_server:
        return tr("Measured here while the office server writes: {w} tokens per second. "
                  "A token is a piece of a word; words shown here are tokens × {ratio}."
                  ).format(w=f"{model.decode_tps:.1f}", ratio=f"{model.words_per_token:.2f}")
    return tr("Measured by the engine: writing {w} tokens per second, reading {r} tokens "
              "per second. A token is a piece of a word; words shown here are tokens "
              "× {ratio}.").format(w=f"{model.decode_tps:.1f}", r=f"{model.prompt_tps:.0f}",
                                    ratio=f"{model.words_per_token:.2f}")


def context_text(model: GaugeModel) -> str:
    if not model.context_size and model.on_server:    # e.g. llama-cpp-python's server
        if not model.context_used:
            return tr("Conversation memory: not reported by the server")
        return tr("Conversation memory: not reported by the server; about {n} words "
                  "sent so far").format(n=_about(model.words(model.context_used)))
    if not model.context_size:
        return tr("Conversation memory: no model loaded")
    if model.context_used is None:
        return tr("Conversation memory: shown after the next answer")
    left = max(0, model.context_size - model.context_used)
    return tr("Conversation memory: about {n} words left").format(n=_about(model.words(left)))


def context_details(model: GaugeModel) -> str:
    if model.context_used is None:
        return ""
    if not model.context_size and model.on_server:
        return tr("Context: {used} tokens sent so far, counted by the server; it does not "
                  "say how many it can hold.").format(used=f"{model.context_used:,}")
    if not model.context_size:
        return ""
    return tr("Context: {used} of {size} tokens used, measured by the engine.").format(
        used=f"{model.context_used:,}", size=f"{model.context_size:,}")


def hit_text(model: GaugeModel) -> str:
    if model.hit_rate is None:
        return ""
    return tr("Ready on the graphics card: {pct}% of the work").format(
        pct=f"{model.hit_rate * 100:.0f}")


def hit_details(model: GaugeModel) -> str:
    if model.hit_rate is None:
        return ""
    text = tr("Expert hit rate, measured by the engine: the share of expert work whose "
              "experts were already in graphics memory.")
    if model.token_hits is not None:
        hits, misses = model.token_hits
        text += " " + tr("This word: {hits} of {all} experts from the graphics card; "
                         "{mb} MB copied there during this answer.").format(
            hits=hits, all=hits + misses, mb=f"{model.uploaded_bytes / 2**20:.0f}")
    shares = model.layer_shares()
    if shares:
        text += " " + tr("Per layer, in order: {shares}.").format(
            shares=", ".join(f"{share * 100:.0f}%" for share in shares))
    return text


def _unbroken(phrase: str) -> str:
    """A short phrase kept on one line (no-break spaces): a wrap moves it whole."""
    return phrase.replace(" ", "\u00a0")
