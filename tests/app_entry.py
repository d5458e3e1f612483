"""The app's entry for Streamlit's AppTest: the same frame as app.py, from a folder with no
pages/ beside it. AppTest switches Streamlit's older pages-folder mode back on before every run
(a real server leaves it once st.navigation has been called), so app.py itself would be run by
that mode each time; from here every run is routed as a real server's are."""
from pages.components import navigation

navigation.run()
