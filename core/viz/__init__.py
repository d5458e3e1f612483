"""What the app draws, built without streamlit: self-contained HTML and plotly figures.

graph   the self-contained HTML graph of a community (pyvis records, vis-network inlined)
entity_evidence  what a graph node's click shows beside the graph (description, relationships,
        source sentences)
charts  plotly figures: the community hierarchy and the map step's point scores
compare_charts  DRIFT's follow-up tree, a comparison's win-rate heatmap and cost per method
"""
