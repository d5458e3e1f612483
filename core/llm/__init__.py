"""The language-model client: everything between a prompt and a parsed answer.

client          the ChatClient protocol, errors, and the LLM wrapper (cache, usage, cost)
openai          chat and embeddings through any OpenAI-compatible endpoint (retries, limits)
endpoints       the endpoint registry: per endpoint its client, limits and learnt quirks
connection      the connection test: what is wrong with an endpoint, or which model answers
stream          reading a streamed (or whole) answer into one shape; cutting one that loops
runaway         detecting a model that repeats one passage over and over
context_window  the model's context window, read from the server where it says
jsonparse       tolerant JSON of model answers, the repair retry, echo and empty detection
ratelimit       requests- and tokens-per-minute buckets
concurrency     the adaptive limit of calls in flight per endpoint, learnt from the server
affinity        at one call at a time, which waiting call goes next (the one the server's cache holds)
"""
