"""How a conversation becomes a prompt and a reply is read back: llama.cpp's chat layer
and what Rotary knows of formats it lacks."""
