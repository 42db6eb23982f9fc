import Testing
import Sync
