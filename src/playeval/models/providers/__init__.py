"""Thin backends behind the ``Model`` wrapper: one ``generate`` each, no retries, no cache.

Modules here import their SDKs (llama_cpp, openai, anthropic) only when a
call needs them, so importing a provider is cheap.
"""
