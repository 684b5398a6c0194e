from duplicate import create_app
app = create_app()
